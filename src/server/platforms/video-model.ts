// The neutral video model every platform maps its data to (issue 19): what services, routes and
// the client see. Platform-specific fields stay in the platform's raw item.

export interface MediaOption {
  quality: string; // '1080p', '720p' (sharper than the best H.264 file), then 'hd' = best H.264, 'sd', 'low', 'q4'...
  codec: 'h264' | 'hevc';
  width: number | null;
  height: number | null;
  size: number | null; // bytes when the platform says (for a 'split' file: the video track alone)
  bitrate: number | null;
  urls: string[]; // file URLs to try in order (e.g. a CDN, then its mirror)
  /**
   * 'whole' (default): one MP4 with its own sound, served as it is. 'split': a video-only file whose
   * sound is one of `audio`, remuxed by the server (decision 0014).
   */
  form?: 'whole' | 'split';
  /** 'split' only: the sound tracks to pair with it, best first, each its URLs (Main, Backup, Fallback). */
  audio?: string[][];
  /** Other files of the same resolution, next best first: tried when this one fails or is silent. */
  alternates?: MediaOption[];
  /** True when the post has no sound at all: the file is the video alone, and the card says so. */
  silent?: boolean;
}

/** The post's sound as the platform stores it (copied, never re-encoded). */
export interface OriginalSound {
  /** Each candidate's URLs, best first: a sound track, else the music file. */
  sources: Array<{ urls: string[]; ext: 'm4a' | 'mp3'; bitrate: number | null; from: 'track' | 'music' | 'video' }>;
}

/** Pictures of a post offered as downloads through this product's own links. */
export interface PostPictures {
  cover: string[]; // the still cover, best first ([] when none)
  animatedCover: string[]; // an animated cover (WebP), [] when none
  avatar: string[]; // the author's picture, largest first
}

/** One slide of a photo post: its (signed, expiring) URLs, best first. */
export interface PhotoSlide {
  urls: string[];
  width: number | null;
  height: number | null;
}

export interface VideoModel {
  id: string;
  title: string;
  description: string;
  author: string; // handle
  authorName: string | null; // display name
  thumbnailUrl: string | null; // cover URL on the platform (may be signed and expire)
  duration: number; // seconds
  views: number;
  likes: number;
  options: MediaOption[];
  /** The post's sound apart from the video, for the audio tools. */
  musicUrl: string | null;
  musicTitle: string | null;
  /** Caption tracks the platform offers. */
  subtitles: Array<{ url: string; language: string; format: string; source: string }>;
  /** The post's own sound, for the original-sound download (null: none to copy). */
  originalSound?: OriginalSound | null;
  pictures?: PostPictures;
  isPhotoPost: boolean;
  /** Photo posts only: the slides in order (empty for a video). */
  images: PhotoSlide[];
}

/**
 * The slideshow frame: 1080 wide, as tall as the tallest slide needs (at most 9:16), even. Other
 * slides are letterboxed inside it, never stretched.
 */
export function slideshowFrame(slides: PhotoSlide[]): { width: number; height: number } {
  const ratios = slides.map((s) => (s.width && s.height ? s.height / s.width : 16 / 9));
  const ratio = Math.min(16 / 9, Math.max(...ratios, 9 / 16));
  return { width: 1080, height: Math.round((1080 * ratio) / 2) * 2 };
}

/** One first-party observation of a fetched video for the trends feature (Platform.observe). */
export interface VideoObservation {
  videoId: string;
  description: string | null;
  author: string | null;
  authorNickname: string | null;
  authorVerified: boolean | null;
  authorFollowers: number | null;
  hashtags: string[];
  musicId: string | null;
  musicTitle: string | null;
  musicAuthor: string | null;
  musicDuration: number | null;
  plays: number | null;
  likes: number | null;
}

/**
 * What the services decide from (issue 44), never a platform's labels: a file that plays with its
 * sound everywhere as it is (one H.264 MP4, `whole`) is relayed; anything else (a `split` file to
 * join with its sound, another codec) is checked or made first, falling back to smaller files.
 */
export const playsAsItIs = (o: MediaOption) => (o.form ?? 'whole') === 'whole' && o.codec === 'h264';
export const isSplit = (o: MediaOption) => o.form === 'split';

/**
 * The option a download, a batch or a tool gets when none is named (or the default label is
 * missing): the first (best) file that plays everywhere, else the first H.264 file, else the first.
 */
export function defaultOption(options: MediaOption[], label: string): MediaOption | undefined {
  return (
    options.find((o) => o.quality === label) ??
    options.find(playsAsItIs) ??
    options.find((o) => o.codec === 'h264') ??
    options[0]
  );
}

/**
 * The preview's file: the lightest whole file with its own sound; else (every file split) the
 * lightest split one, joined with its sound by the caller; else the lightest file (a silent post).
 */
export function previewOption(options: MediaOption[]): MediaOption | undefined {
  const lightest = (list: MediaOption[]) => list.at(-1);
  return (
    lightest(options.filter((o) => (o.form ?? 'whole') === 'whole' && !o.silent)) ??
    lightest(options.filter((o) => isSplit(o) && o.audio?.length)) ??
    lightest(options)
  );
}

/** Option `quality`'s file number `alternate` (0: the option itself, then its alternates in order). */
export function optionFile(options: MediaOption[], quality: string, alternate = 0): MediaOption | undefined {
  const option = options.find((o) => o.quality === quality);
  return alternate ? option?.alternates?.[alternate - 1] : option;
}

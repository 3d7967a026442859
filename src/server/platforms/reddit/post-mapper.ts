// A Reddit post (`/comments/<id>.json`: `[0].data.children[0].data`, kind t3) to the neutral
// VideoModel (issue 44). Pure. What a post carries:
//   secure_media.reddit_video  a video: every height of its DASH manifest (dash.ts), each the video
//                              alone, joined with the best sound track; without sound (has_audio
//                              false, or no sound in the manifest, as GIF-like `is_gif` videos) each
//                              file is offered as it is and marked silent
//   is_gallery                 pictures: `gallery_data.items` gives the order, `media_metadata[id].s`
//                              the largest source
//   post_hint 'image'          one picture: the post's URL, sized by `preview.images[0].source`
//   crosspost_parent_list[0]   the original post, whose media a crosspost shows
import type { MediaOption, PhotoSlide, VideoModel } from '../platform.js';
import type { DashFiles } from './dash.js';

// biome-ignore lint/suspicious/noExplicitAny: Reddit's JSON, unversioned; every read below is checked
export type Post = Record<string, any>;

/** A gallery holds at most 20 pictures; anything past 50 is not a real post (decision 0081). */
const MAX_SLIDES = 50;

const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);
const size = (v: unknown): number | null => count(v) || null;
/** Reddit escapes `&` in URLs unless asked for raw JSON; either way a link comes out plain. */
const link = (v: unknown): string | null => {
  const s = str(v)?.replaceAll('&amp;', '&');
  return s?.startsWith('https://') ? s : null;
};

/** The post whose media this is: a crosspost's original, else the post itself. */
export function mediaPost(post: Post): Post {
  const parent = Array.isArray(post.crosspost_parent_list) ? post.crosspost_parent_list[0] : null;
  return parent && typeof parent === 'object' ? parent : post;
}

export const redditVideo = (post: Post): Post | null => {
  const v = post.secure_media?.reddit_video ?? post.media?.reddit_video;
  return v && typeof v === 'object' ? v : null;
};

const IMAGE_URL = /^https:\/\/(?:i\.redd\.it|i\.imgur\.com)\/[\w.-]+\.(?:jpe?g|png|gif|webp)$/i;

/** What the post carries: a video, pictures, or nothing to save (a text post, an outside link). */
export function mediaKind(post: Post): 'video' | 'gallery' | 'image' | 'text' | 'none' {
  if (redditVideo(post)) return 'video';
  if (post.is_gallery === true && Array.isArray(post.gallery_data?.items)) return 'gallery';
  const url = link(post.url_overridden_by_dest ?? post.url);
  if (post.post_hint === 'image' || (url && IMAGE_URL.test(url))) return url ? 'image' : 'none';
  return post.is_self === true ? 'text' : 'none';
}

/** The gallery's pictures in its order, each its largest source. */
function gallerySlides(post: Post): PhotoSlide[] {
  const meta = post.media_metadata && typeof post.media_metadata === 'object' ? post.media_metadata : {};
  const slides: PhotoSlide[] = [];
  for (const item of (post.gallery_data.items as unknown[]).slice(0, MAX_SLIDES)) {
    const id = str((item as Post)?.media_id);
    const m: Post | undefined = id ? meta[id] : undefined;
    if (!m || (m.status && m.status !== 'valid')) continue;
    const url = link(m.s?.u) ?? link(m.s?.gif);
    if (url) slides.push({ urls: [url], width: size(m.s?.x), height: size(m.s?.y) });
  }
  return slides;
}

function imageSlide(post: Post): PhotoSlide[] {
  const url = link(post.url_overridden_by_dest ?? post.url);
  const source = post.preview?.images?.[0]?.source;
  return url ? [{ urls: [url], width: size(source?.width), height: size(source?.height) }] : [];
}

/**
 * A video's options, tallest first: each height once (its other files as alternates). With a sound
 * track, each is split and joined with the sound, best first; without one, each is the video alone.
 */
export function videoOptions(files: DashFiles, hasAudio: boolean): MediaOption[] {
  const sound = hasAudio ? files.audios.map((a) => [a.url]) : [];
  const byHeight = new Map<number, MediaOption[]>();
  for (const v of files.videos) {
    const option: MediaOption = {
      quality: `${v.height}p`,
      codec: 'h264',
      width: v.width,
      height: v.height,
      size: null,
      bitrate: v.bandwidth,
      urls: [v.url],
      ...(sound.length ? { form: 'split' as const, audio: sound } : { form: 'whole' as const, silent: true }),
    };
    const list = byHeight.get(v.height);
    if (list) list.push(option);
    else byHeight.set(v.height, [option]);
  }
  return [...byHeight.values()].map(([best, ...rest]) => (rest.length ? { ...best, alternates: rest } : best));
}

/** `files`: the video's manifest, read by the adapter (null for pictures). */
export function mapPost(post: Post, files: DashFiles | null): VideoModel {
  const source = mediaPost(post);
  const kind = mediaKind(source);
  const video = redditVideo(source);
  const images = kind === 'gallery' ? gallerySlides(source) : kind === 'image' ? imageSlide(source) : [];
  const preview = link(source.preview?.images?.[0]?.source?.url);
  const thumbnail = preview ?? link(source.thumbnail) ?? images[0]?.urls[0] ?? null;
  const title = (str(post.title) ?? '').replace(/\s+/g, ' ').trim();
  // The video must say it has no sound (`has_audio: false`) or the manifest must list none.
  const hasAudio = video?.has_audio !== false && video?.is_gif !== true;
  return {
    id: str(post.id) ?? '',
    title: title || `Post in r/${str(post.subreddit) ?? ''}`,
    description: str(post.selftext) ?? title,
    // The community names the file (reddit-<sub>-<id>.mp4); the poster is its display name.
    author: str(post.subreddit) ?? '',
    authorName: str(post.author) ? `u/${post.author}` : null,
    thumbnailUrl: thumbnail,
    duration: count(video?.duration),
    views: count(post.view_count),
    likes: count(post.ups),
    options: kind === 'video' && files ? videoOptions(files, hasAudio) : [],
    musicUrl: null,
    musicTitle: null,
    subtitles: [],
    // The sound track as Reddit stores it (AAC), for the sound download.
    originalSound:
      kind === 'video' && files && hasAudio && files.audios.length
        ? {
            sources: files.audios.map((a) => ({
              urls: [a.url],
              ext: 'm4a' as const,
              bitrate: a.bandwidth,
              from: 'track' as const,
            })),
          }
        : null,
    pictures: { cover: thumbnail ? [thumbnail] : [], animatedCover: [], avatar: [] },
    isPhotoPost: kind === 'gallery' || kind === 'image',
    images,
  };
}

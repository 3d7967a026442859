// What the audio and caption tools need from a video platform. platform-media-source.ts bridges
// to the downloader's video service (every registered platform); tests may hand in fakes.
import type { Readable } from 'node:stream';
import type { SubtitleTrack } from '../adapters/asr/types.js';

export interface MediaVideoInfo {
  platform: string; // the registry id
  videoId: string;
  title: string;
  author: string;
  /** Seconds, as the platform reports it (0 when unknown). */
  duration: number;
  /** Photo posts have no video stream: their sound is the music track. */
  isPhotoPost: boolean;
  subtitles: SubtitleTrack[];
  /** Platform state needed to open the media later (cookies, page URL); opaque to services. */
  session?: unknown;
}

export interface OpenedMedia {
  stream: Readable;
  /** Content-Length when the upstream announced one (a short body is then an error). */
  length: number | null;
}

export interface VideoSource {
  video: OpenedMedia;
  sound?: OpenedMedia;
  codec: 'h264' | 'hevc';
}

/**
 * A source named by the server, never by a request: an upload its owner's request was checked for
 * (`studioUploads.ready`). Tools take links as strings; only this shape reaches an upload (issue 34).
 */
export interface OwnedUpload {
  readonly upload: string;
}

/** The source's name for the media job (`upload:<id>` never comes from a request). */
export const sourceName = (source: string | OwnedUpload): string =>
  typeof source === 'string' ? source : `upload:${source.upload}`;

export interface MediaSource {
  /** True when a registered platform recognises the link (the one link rule: platforms/registry.ts); never `upload:`. */
  recognises(url: string): boolean;
  /** The registered platforms' names, for messages. */
  platformNames(): string[];
  lookup(url: string, signal?: AbortSignal): Promise<MediaVideoInfo>;
  /** The sound to listen to: the video file, a split file's own sound track, or a photo post's music. */
  openAudioSource(url: string, info: MediaVideoInfo, signal?: AbortSignal): Promise<OpenedMedia>;
  /**
   * The video with its sound (the caption studio's source): one file, or a split file's two parts
   * for the caller to join (`codec`: the video part's). Absent: `openAudioSource` is the video.
   */
  openVideoSource?(url: string, info: MediaVideoInfo, signal?: AbortSignal): Promise<VideoSource>;
  /** A small text file (captions) through the guarded HTTP client, with the video's session. */
  fetchText(url: string, info: MediaVideoInfo, signal?: AbortSignal): Promise<string>;
}

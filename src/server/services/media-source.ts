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

export interface MediaSource {
  /** True when a registered platform recognises the link (the one link rule: platforms/registry.ts). */
  recognises(url: string): boolean;
  /** The registered platforms' names, for messages. */
  platformNames(): string[];
  lookup(url: string, signal?: AbortSignal): Promise<MediaVideoInfo>;
  /** The video file, or the music track for photo posts. */
  openAudioSource(url: string, info: MediaVideoInfo, signal?: AbortSignal): Promise<OpenedMedia>;
  /** A small text file (captions) through the guarded HTTP client, with the video's session. */
  fetchText(url: string, info: MediaVideoInfo, signal?: AbortSignal): Promise<string>;
}

// What the audio and caption tools need from a video platform. The TikTok implementation
// bridges to the downloader's video service (ctx.services.video); tests may hand in fakes.
import type { Readable } from 'node:stream';
import type { SubtitleTrack } from '../adapters/asr/types.js';

export interface MediaVideoInfo {
  videoId: string;
  title: string;
  author: string;
  /** Seconds, as the platform reports it (0 when unknown). */
  duration: number;
  /** Photo posts have no video stream: their sound is the music track. */
  isPhotoPost: boolean;
  subtitles: SubtitleTrack[];
}

export interface OpenedMedia {
  stream: Readable;
  /** Content-Length when the upstream announced one (a short body is then an error). */
  length: number | null;
}

export interface MediaSource {
  lookup(url: string, signal?: AbortSignal): Promise<MediaVideoInfo>;
  /** The video file, or the music track for photo posts. */
  openAudioSource(url: string, info: MediaVideoInfo, signal?: AbortSignal): Promise<OpenedMedia>;
  /** A small text file (captions) through the guarded HTTP client. */
  fetchText(url: string, signal?: AbortSignal): Promise<string>;
}

/** TikTok through the downloader's video service (wired once that service exists). */
export function createTikTokMediaSource(services: () => Record<string, unknown>): MediaSource {
  const missing = async (): Promise<never> => {
    void services;
    const { AppError } = await import('../errors.js');
    throw new AppError(503, 'video.unavailable', 'Video lookup is not available on this server yet.');
  };
  return { lookup: missing, openAudioSource: missing, fetchText: missing };
}

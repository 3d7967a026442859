// The audio and caption tools' view of TikTok, on top of the downloader's video service (same
// extractor, cache, cookies and guarded HTTP client): look up, open the sound, fetch captions.
import type { Readable } from 'node:stream';
import { AppError } from '../errors.js';
import type { MediaSource, MediaVideoInfo } from './media-source.js';

/** The part of ctx.services.video (video.service.ts) used here. */
interface FetchedLike {
  video: {
    id: string;
    title: string;
    description: string;
    author: string;
    duration: number;
    isPhotoPost: boolean;
    options: unknown[];
    musicUrl: string | null;
    subtitles: Array<{ url: string; language: string; format: string; source: string }>;
  };
}
export interface VideoServiceLike {
  lookup(url: string, signal?: AbortSignal): Promise<FetchedLike>;
  openMedia(
    url: string,
    req: { kind: 'video'; quality?: string } | { kind: 'music' },
    signal?: AbortSignal,
    o?: { maxBytes?: number },
  ): Promise<{ stream: Readable; status: number; contentLength: number | null }>;
  fetchText(mediaUrl: string, video: never, signal?: AbortSignal): Promise<string>;
}

export function createTikTokMediaSource(videoService: () => VideoServiceLike): MediaSource {
  return {
    async lookup(url, signal) {
      const fetched = await videoService().lookup(url, signal);
      const v = fetched.video;
      const info: MediaVideoInfo = {
        videoId: v.id,
        title: v.title || v.description || `TikTok video ${v.id}`,
        author: v.author,
        duration: v.duration,
        isPhotoPost: v.isPhotoPost,
        subtitles: v.subtitles,
        session: fetched,
      };
      return info;
    },

    async openAudioSource(url, info, signal) {
      const fetched = info.session as FetchedLike;
      // Photo posts have no video file: their sound is the music track.
      const useMusic = info.isPhotoPost || !fetched.video.options.length;
      if (useMusic && !fetched.video.musicUrl) throw new AppError(422, 'media.no_audio', 'This post has no sound to extract.');
      // No maxBytes here: the byte ceiling is enforced while writing the temp file (temp-files.ts),
      // and a piped ceiling stream would not pass on the upstream's mid-file disconnect.
      const m = await videoService().openMedia(url, useMusic ? { kind: 'music' } : { kind: 'video' }, signal);
      return { stream: m.stream, length: m.status === 200 ? m.contentLength : null };
    },

    fetchText(url, info, signal) {
      return videoService().fetchText(url, info.session as never, signal);
    },
  };
}

// The audio and caption tools' view of every registered platform, on top of the downloader's video
// service (same lookups, cache, sessions and guarded HTTP client): look up, open the sound, fetch
// captions.
import { fail } from '../errors.js';
import type { FetchedVideo } from '../platforms/platform.js';
import type { MediaSource, MediaVideoInfo } from './media-source.js';
import type { VideoService } from './video.service.js';

export function createPlatformMediaSource(videoService: () => VideoService): MediaSource {
  return {
    recognises: (url) => videoService().recognises(url),
    platformNames: () => videoService().platformNames(),
    async lookup(url, signal) {
      const fetched = await videoService().lookup(url, signal);
      const v = fetched.video;
      const info: MediaVideoInfo = {
        platform: fetched.ref.platform,
        videoId: v.id,
        title: v.title || v.description || `Video ${v.id}`,
        author: v.author,
        duration: v.duration,
        isPhotoPost: v.isPhotoPost,
        subtitles: v.subtitles,
        session: fetched,
      };
      return info;
    },

    async openAudioSource(url, info, signal) {
      const fetched = info.session as FetchedVideo;
      // Photo posts have no video file: their sound is the music track.
      const useMusic = info.isPhotoPost || !fetched.video.options.length;
      if (useMusic && !fetched.video.musicUrl) throw fail('media.no_audio', { variant: 'post' });
      // The byte ceiling (MEDIA_MAX_INPUT_MB) is enforced while writing the temp file (temp-files.ts).
      const m = await videoService().openMedia(url, useMusic ? { kind: 'music' } : { kind: 'video' }, signal, {
        bulk: true,
      });
      return { stream: m.stream, length: m.status === 200 ? m.contentLength : null };
    },

    fetchText(url, info, signal) {
      return videoService().fetchText(url, info.session as FetchedVideo, signal);
    },
  };
}

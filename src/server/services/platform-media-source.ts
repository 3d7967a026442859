// The audio and caption tools' view of every registered platform, on top of the downloader's video
// service (same lookups, cache, sessions and guarded HTTP client): look up, open the sound, fetch
// captions. Which file to open is read from the neutral model (issue 44): a split file's sound is
// its own track, a post without sound has none.
import { fail } from '../errors.js';
import { DEFAULT_QUALITY } from '../../shared/constants.js';
import type { FetchedVideo, MediaOption } from '../platforms/platform.js';
import { defaultOption, isSplit } from '../platforms/video-model.js';
import type { MediaSource, MediaVideoInfo, OpenedMedia } from './media-source.js';
import { isGone } from './remux.service.js';
import type { VideoService } from './video.service.js';

export function createPlatformMediaSource(videoService: () => VideoService): MediaSource {
  const opened = (m: { stream: OpenedMedia['stream']; status: number; contentLength: number | null }) => ({
    stream: m.stream,
    length: m.status === 200 ? m.contentLength : null,
  });
  // The byte ceiling (MEDIA_MAX_INPUT_MB) is enforced while writing the temp file (temp-files.ts).
  const openUrls = async (url: string, urls: string[], signal?: AbortSignal) =>
    opened(await videoService().openMedia(url, { kind: 'video', mediaUrls: urls }, signal, { bulk: true }));

  /** A split file's sound: the best track that answers. */
  async function openSound(url: string, fetched: FetchedVideo, option: MediaOption, signal?: AbortSignal) {
    let last: unknown = fail('video.sound_unavailable', {
      variant: 'post',
      platform: videoService().platformName(fetched.ref.platform),
    });
    for (const track of option.audio ?? []) {
      try {
        return await openUrls(url, track, signal);
      } catch (err) {
        if (signal?.aborted || !isGone(err)) throw err;
        last = err;
      }
    }
    throw last;
  }

  /** The file the tools take: the default one (video-model.ts `defaultOption`); null for a photo post. */
  const optionOf = (info: MediaVideoInfo): MediaOption | null => {
    const fetched = info.session as FetchedVideo;
    if (info.isPhotoPost || !fetched.video.options.length) return null;
    return defaultOption(fetched.video.options, DEFAULT_QUALITY) ?? null;
  };

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
      const option = optionOf(info);
      // Photo posts have no video file: their sound is the music track.
      if (!option) {
        if (!fetched.video.musicUrl) throw fail('media.no_audio', { variant: 'post' });
        return opened(await videoService().openMedia(url, { kind: 'music' }, signal, { bulk: true }));
      }
      if (option.silent) throw fail('media.no_audio', { variant: 'post' });
      // A split file's sound is a file of its own: the video part is never fetched for it.
      if (isSplit(option)) return openSound(url, fetched, option, signal);
      return opened(
        await videoService().openMedia(url, { kind: 'video', quality: option.quality }, signal, { bulk: true }),
      );
    },

    async openVideoSource(url, info, signal) {
      const fetched = info.session as FetchedVideo;
      const option = optionOf(info);
      if (!option) throw fail('media.no_audio', { variant: 'post' });
      if (!isSplit(option))
        return {
          video: opened(
            await videoService().openMedia(url, { kind: 'video', quality: option.quality }, signal, { bulk: true }),
          ),
          codec: option.codec,
        };
      const video = await openUrls(url, option.urls, signal);
      try {
        return { video, sound: await openSound(url, fetched, option, signal), codec: option.codec };
      } catch (err) {
        video.stream.destroy();
        throw err;
      }
    },

    fetchText(url, info, signal) {
      return videoService().fetchText(url, info.session as FetchedVideo, signal);
    },
  };
}

// Inline preview (decision 0092 'Downloader screen': Play shows it in the card). Pro users get the lightest video
// option itself, with Range. Everyone else gets a short clip (decision 0010): the preview must
// never be a free, unlimited copy of the file that the download quota counts. The clip is cut by a
// media job (kind `preview`, any node that works jobs), shared by everyone asking for it meanwhile.
import path from 'node:path';
import type { MediaProcessor } from '../adapters/media/media-processor.js';
import type { JobOwner } from '../jobs/catalogue.js';
import { cutPreviewClip } from '../adapters/media/preview-clip.js';
import { defineMediaJob } from './media-job.js';
import type { MediaJobs } from './media-jobs.service.js';
import type { MediaResultsService } from './media-results.service.js';
import type { OpenedVideoMedia, VideoService } from './video.service.js';
import type { RemuxService } from './remux.service.js';
import { isGone } from './remux.service.js';
import { mediaKeyId } from '../platforms/platform.js';
import { isSplit } from '../platforms/video-model.js';
import { fail } from '../errors.js';
import { DEFAULT_PLATFORM } from '../platforms/registry.js';

/** A free preview is the first half of the video, at most this long. */
export const FREE_PREVIEW_MAX_SECONDS = 10;

export function freePreviewSeconds(duration: number): number {
  if (!(duration > 0)) return FREE_PREVIEW_MAX_SECONDS / 2;
  return Math.max(1, Math.min(FREE_PREVIEW_MAX_SECONDS, duration / 2));
}

/** The first sound track that answers, best first; none: no clip (it would be silent). */
async function openSound(
  tracks: string[][],
  open: (urls: string[]) => Promise<OpenedVideoMedia>,
  platform: string,
): Promise<OpenedVideoMedia> {
  let last: unknown = fail('video.sound_unavailable', { variant: 'post', platform });
  for (const urls of tracks) {
    try {
      return await open(urls);
    } catch (err) {
      if (!isGone(err)) throw err;
      last = err;
    }
  }
  throw last;
}

export function createPreviewService(deps: {
  video: VideoService;
  media: MediaProcessor;
  results: MediaResultsService;
  jobs: MediaJobs;
  remux: RemuxService;
}) {
  // The job, on whichever node runs it: the platform and the video id (the lookup is by id).
  const job = defineMediaJob(deps, {
    kind: 'preview',
    key: ({ platform, videoId }) => `preview:${mediaKeyId({ platform, id: videoId })}`,
    load: async () => undefined,
    async produce({ data: { platform, videoId }, dir, signal, save }) {
      const { video, option } = await deps.video.previewFile(videoId, signal, platform);
      const open = (urls: string[]) =>
        deps.video.openMedia(video.ref.url, { kind: 'video', mediaUrls: urls }, signal, { bulk: true });
      const fetch = async (opened: OpenedVideoMedia, name: string) => {
        const file = path.join(dir, name);
        await deps.media.download(opened.stream, file, { expectedBytes: opened.contentLength, signal });
        return file;
      };
      const input = isSplit(option)
        ? await fetch(await open(option.urls), 'input.mp4')
        : await fetch(await deps.video.openPreview(videoId, undefined, signal, platform), 'input.mp4');
      // A split file's clip takes its sound from the best track that answers (never a silent clip).
      const name = deps.video.platformName(platform);
      const sound = isSplit(option)
        ? await fetch(await openSound(option.audio ?? [], open, name), 'sound.m4a')
        : undefined;
      const output = path.join(dir, 'preview.mp4');
      const size = await cutPreviewClip(
        deps.media,
        input,
        output,
        freePreviewSeconds(video.video.duration),
        signal,
        sound,
      );
      return save({
        platform,
        videoId,
        file: output,
        ext: 'mp4',
        contentType: 'video/mp4',
        size,
        meta: { fileName: `preview-${videoId}.mp4` },
      });
    },
  });

  return {
    /**
     * The full preview of a video whose files are all split: a signed link to its joined file (the
     * same kept remux a download makes); null when a whole file can be relayed with Range instead.
     */
    async joinedLink(id: string, signal?: AbortSignal, platform = DEFAULT_PLATFORM, owner?: JobOwner) {
      const { video, option } = await deps.video.previewFile(id, signal, platform);
      if (!isSplit(option)) return null;
      return deps.results.link(await deps.remux.ensure(video, option, signal, owner));
    },
    /** A signed link to the free preview clip of a video, cut once and kept like other results. */
    async clipLink(id: string, signal?: AbortSignal, platform = DEFAULT_PLATFORM, owner?: JobOwner): Promise<string> {
      return deps.results.link(await job.run({ data: { platform, videoId: id }, source: undefined, owner }, signal));
    },
  };
}
export type PreviewService = ReturnType<typeof createPreviewService>;

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
import type { VideoService } from './video.service.js';
import { mediaKeyId } from '../platforms/platform.js';
import { DEFAULT_PLATFORM } from '../platforms/registry.js';

/** A free preview is the first half of the video, at most this long. */
export const FREE_PREVIEW_MAX_SECONDS = 10;

export function freePreviewSeconds(duration: number): number {
  if (!(duration > 0)) return FREE_PREVIEW_MAX_SECONDS / 2;
  return Math.max(1, Math.min(FREE_PREVIEW_MAX_SECONDS, duration / 2));
}

export function createPreviewService(deps: {
  video: VideoService;
  media: MediaProcessor;
  results: MediaResultsService;
  jobs: MediaJobs;
}) {
  // The job, on whichever node runs it: the platform and the video id (the lookup is by id).
  const job = defineMediaJob(deps, {
    kind: 'preview',
    key: ({ platform, videoId }) => `preview:${mediaKeyId({ platform, id: videoId })}`,
    load: async () => undefined,
    async produce({ data: { platform, videoId }, dir, signal, save }) {
      const opened = await deps.video.openPreview(videoId, undefined, signal, platform);
      const input = path.join(dir, 'input.mp4');
      await deps.media.download(opened.stream, input, { expectedBytes: opened.contentLength, signal });
      const output = path.join(dir, 'preview.mp4');
      const size = await cutPreviewClip(
        deps.media,
        input,
        output,
        freePreviewSeconds(opened.video.video.duration),
        signal,
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
    /** A signed link to the free preview clip of a video, cut once and kept like other results. */
    async clipLink(id: string, signal?: AbortSignal, platform = DEFAULT_PLATFORM, owner?: JobOwner): Promise<string> {
      return deps.results.link(await job.run({ data: { platform, videoId: id }, source: undefined, owner }, signal));
    },
  };
}
export type PreviewService = ReturnType<typeof createPreviewService>;

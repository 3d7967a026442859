// The downloader and every media tool: lookups on the registered platforms, the free quota, media
// jobs on the queue (catalogue dispatcher for batch items and scheduled turns, media kinds in the
// media feature), the caption studio, remuxes, photo posts, batches, previews and downloads.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { FetchedVideo } from '../platforms/platform.js';
import type { TranscriptionEngine } from '../adapters/asr/types.js';
import { createJobDispatcher } from '../jobs/dispatcher.js';
import { createVideoService } from '../services/video.service.js';
import { createQuotaService } from '../services/quota.service.js';
import { createPlatformMediaSource } from '../services/platform-media-source.js';
import type { MediaSource } from '../services/media-source.js';
import { createMediaFeature } from '../services/media-feature.js';
import { createRemuxService } from '../services/remux.service.js';
import { createPhotoPostService } from '../services/photo-post.service.js';
import { createBatchService } from '../services/batch.service.js';
import { createPreviewService } from '../services/preview.service.js';
import { createDownloadService } from '../services/download.service.js';
import { withUploads } from '../services/caption-studio/upload-media-source.js';
import { createCaptionStudioFeature } from '../services/caption-studio/caption-studio.feature.js';
import { createStudioFonts } from '../services/caption-studio/studio-fonts.service.js';
import type { Adapters } from './adapters.js';
import type { Repositories } from './repositories.js';

export interface MediaOverrides {
  /** Audio/captions: the video platform and the transcription engines (tests). */
  mediaSource?: MediaSource;
  transcriptionEngines?: TranscriptionEngine[];
}

export function createMediaServices(
  config: Config,
  deps: { repos: Repositories; adapters: Adapters; logger: Logger; database: Pick<Database, 'oneNodeAtATime'> },
  overrides: MediaOverrides = {},
) {
  const { repos, adapters, logger } = deps;
  /**
   * Called with every freshly fetched video (downloader lookups); the trends feature records what
   * the video's platform observes of it (Platform.observe). Must not throw or block.
   */
  const videoObservers: Array<(video: FetchedVideo) => void> = [];
  const video = createVideoService({ platforms: adapters.platforms, observers: () => videoObservers, logger });
  const quota = createQuotaService({ downloads: repos.downloads });
  // The catalogue's dispatcher for batch items and scheduled turns (media kinds: mediaFeature.jobs).
  const jobDispatcher = createJobDispatcher({
    queue: adapters.jobQueue,
    limits: { media: config.MEDIA_TIMEOUT_SECONDS, batchItem: config.BATCH_ITEM_TIMEOUT_SECONDS },
  });
  // The caption studio's uploads (`upload:<id>`) are a source too, so transcription reads them as
  // links; they are kept as media results, which the media feature made from this very source.
  const mediaSource = withUploads(overrides.mediaSource ?? createPlatformMediaSource(() => video), {
    repo: () => repos.captionProjects,
    results: () => mediaFeature.results,
  });
  const mediaFeature = createMediaFeature(config, {
    repo: repos.mediaResults,
    source: mediaSource,
    queue: adapters.jobQueue,
    logger,
    engines: overrides.transcriptionEngines,
    http: adapters.http,
    oneNodeAtATime: (work) => deps.database.oneNodeAtATime(work, 'whisperModel'),
  });
  const { media, results, jobs: mediaJobs } = mediaFeature;
  // Caption studio (issue 29): uploads, projects, burn-in renders.
  const studio = createCaptionStudioFeature(config, {
    repo: repos.captionProjects,
    media: mediaFeature,
    source: mediaSource,
    logger,
  });
  const remux = createRemuxService({ video, media, results, jobs: mediaJobs });
  const photos = createPhotoPostService({ video, media, results, jobs: mediaJobs });
  const batch = createBatchService({
    repo: repos.batches,
    jobs: jobDispatcher,
    video,
    remux,
    photos,
    media,
    results,
    secret: config.sessionSecret,
    ttlMs: config.MEDIA_RESULT_TTL_HOURS * 3_600_000,
    concurrency: media.config.concurrency ?? 1,
    logger,
  });
  return {
    mediaFeature,
    jobDispatcher,
    videoObservers,
    batchExpiryTask: batch.expiryTask,
    studioCleanupTask: studio.uploads.cleanupTask,
    services: {
      video,
      quota,
      downloads: createDownloadService({ video, quota, remux, photos, downloads: repos.downloads, logger }),
      batch,
      mediaResults: results,
      mediaJobs,
      preview: createPreviewService({ video, media, results, jobs: mediaJobs, remux }),
      audio: mediaFeature.audio,
      transcription: mediaFeature.transcription,
      whisperModel: mediaFeature.whisperModel,
      captionProjects: studio.projects,
      studioUploads: studio.uploads,
      studioFonts: createStudioFonts(),
    },
  };
}

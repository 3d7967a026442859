// Composition of the caption studio (issue 29), called by context.ts: uploads (tus), the source
// videos, the projects and the render job, over the media feature's store, results and jobs.
import path from 'node:path';
import type { Config } from '../../config.js';
import type { Logger } from 'pino';
import type { CaptionProjectsRepository } from '../../db/repositories/caption-projects.repository.js';
import type { createMediaFeature } from '../media-feature.js';
import type { MediaSource } from '../media-source.js';
import { createCaptionProjectsService } from './caption-projects.service.js';
import { defineCaptionRender } from './caption-render.job.js';
import { createStudioSource } from './studio-source.js';
import { createStudioUploads } from './studio-uploads.service.js';

export function createCaptionStudioFeature(
  config: Config,
  deps: {
    repo: CaptionProjectsRepository;
    media: ReturnType<typeof createMediaFeature>;
    source: MediaSource;
    logger: Logger;
  },
) {
  const m = deps.media;
  const uploads = createStudioUploads({
    repo: deps.repo,
    results: m.results,
    dir: path.join(config.DATA_DIR, 'tmp', 'uploads'),
    bins: { ffmpeg: m.binaries.ffmpeg.path, ffprobe: m.binaries.ffprobe.path },
    maxBytes: config.MEDIA_MAX_INPUT_MB * 1024 * 1024,
    ttlMs: config.MEDIA_RESULT_TTL_HOURS * 3_600_000,
    staleMs: config.UPLOADS_STALE_MINUTES * 60_000,
    maxOpen: config.UPLOADS_MAX_OPEN,
    maxOpenBytes: config.UPLOADS_MAX_OPEN_MB * 1024 * 1024,
    timeoutMs: config.MEDIA_TIMEOUT_SECONDS * 1000,
    logger: deps.logger,
  });
  const sources = createStudioSource({ source: deps.source, media: m.media, results: m.results, jobs: m.jobs });
  const render = defineCaptionRender({ jobs: m.jobs, repo: deps.repo, media: m.media, results: m.results });
  const projects = createCaptionProjectsService({
    repo: deps.repo,
    transcription: m.transcription,
    sources,
    uploads,
    results: m.results,
    store: m.store,
    render,
  });
  return { uploads, projects };
}

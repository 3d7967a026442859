// The burn-in render as a media job (kind `caption-render`), on whichever node works jobs: the
// stored source video and the project's ASS file (the same buildAss the preview draws) through
// ffmpeg + libass, progress reported from ffmpeg's own -progress output, the MP4 kept in the media
// store and handed out by a signed link like every other result.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { buildAss } from '../../../shared/caption-ass.js';
import { transcriptFileName } from '../../../shared/captions.js';
import { burnCaptions } from '../../adapters/media/caption-burn.js';
import type { MediaProcessor } from '../../adapters/media/media-processor.js';
import { fontsDir } from '../../adapters/media/studio-fonts.js';
import type {
  CaptionProjectRow,
  CaptionProjectsRepository,
} from '../../db/repositories/caption-projects.repository.js';
import type { MediaResult } from '../../db/repositories/media-results.repository.js';
import { fail } from '../../errors.js';
import type { MediaJobs } from '../media-jobs.service.js';
import type { MediaResultsService } from '../media-results.service.js';
import { defineMediaJob } from '../media-job.js';
import { projectView, renderKey } from './caption-projects.service.js';
import { probeVideo } from './studio-source.js';

/** What the render needs of the source, as its stored meta says (sources stored before it have no audioCodec). */
export function knownProbe(
  meta: unknown,
): { width: number; height: number; duration: number; audioCodec: string | null } | null {
  const m = (meta ?? {}) as Record<string, unknown>;
  const positive = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;
  if (!positive(m.width) || !positive(m.height) || !positive(m.duration) || !('audioCodec' in m)) return null;
  if (m.audioCodec !== null && typeof m.audioCodec !== 'string') return null;
  return { width: m.width, height: m.height, duration: m.duration, audioCodec: m.audioCodec };
}

/** The project as asked for, and its stored source video. */
interface RenderSource {
  row: CaptionProjectRow;
  source: MediaResult;
}

export function defineCaptionRender(deps: {
  jobs: MediaJobs;
  repo: CaptionProjectsRepository;
  media: MediaProcessor;
  results: MediaResultsService;
}) {
  return defineMediaJob(deps, {
    kind: 'caption-render',
    // The same captions on the same video render once.
    key: (_data, { row }: RenderSource) => renderKey(row.id, buildAss(projectView(row))),
    // On a node the request did not hand its project to: the revision asked for, or nothing. A save
    // that landed while the job waited must not be rendered under the earlier revision's key.
    async load({ projectId, userId, revision }) {
      const row = await deps.repo.find(projectId, userId);
      if (!row) throw fail('studio.not_found');
      if (row.revision !== revision) throw fail('studio.render_outdated');
      const source = await deps.results.find(row.mediaKey);
      if (!source) throw fail('studio.source_gone');
      return { row, source };
    },
    async produce({ source: { row, source }, dir, signal, progress, save }) {
      const project = projectView(row);
      const opened = await deps.results.openRow(source);
      if (!opened) throw fail('studio.source_gone');
      const input = path.join(dir, 'source.mp4');
      await deps.media.download(opened.stream, input, { expectedBytes: opened.size, signal });
      // The source was probed when it was stored; probing it again cost 0.1-0.7 s of every render.
      const probed = knownProbe(source.meta) ?? (await probeVideo(deps.media, input, signal));
      if (!probed) throw fail('media.unreadable');
      const ass = path.join(dir, 'captions.ass');
      await fsp.writeFile(ass, buildAss({ ...project, width: probed.width, height: probed.height }));
      const output = path.join(dir, 'captioned.mp4');
      progress(0);
      const size = await burnCaptions(
        deps.media.config.ffmpeg,
        {
          input,
          ass,
          fontsDir: await fontsDir(deps.media.config.tmpRoot),
          output,
          width: probed.width,
          height: probed.height,
          audioCodec: probed.audioCodec,
          duration: probed.duration,
          timeoutMs: deps.media.config.timeoutMs,
          maxBytes: deps.media.config.maxInputBytes * 4,
          signal,
        },
        progress,
      );
      return save({
        platform: 'studio',
        videoId: null,
        file: output,
        ext: 'mp4',
        contentType: 'video/mp4',
        size,
        meta: { fileName: transcriptFileName(project.title, '_captions.mp4'), projectId: row.id },
      });
    },
  });
}
export type CaptionRenderJob = ReturnType<typeof defineCaptionRender>;

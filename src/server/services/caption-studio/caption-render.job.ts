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
import type { CaptionProjectsRepository } from '../../db/repositories/caption-projects.repository.js';
import { fail } from '../../errors.js';
import type { MediaJobs } from '../media-jobs.service.js';
import type { MediaResultsService } from '../media-results.service.js';
import { projectView } from './caption-projects.service.js';
import { probeVideo } from './studio-source.js';

export function registerCaptionRender(deps: {
  jobs: MediaJobs;
  repo: CaptionProjectsRepository;
  media: MediaProcessor;
  results: MediaResultsService;
}) {
  deps.jobs.register('caption-render', async (data, signal, who, _local, progress) => {
    const row = await deps.repo.find(String(data.projectId), String(data.userId));
    if (!row) throw fail('studio.not_found');
    const source = await deps.results.find(row.mediaKey);
    if (!source) throw fail('studio.source_gone');
    const project = projectView(row);
    return deps.media.job(
      signal,
      async (dir) => {
        const opened = await deps.results.openRow(source);
        if (!opened) throw fail('studio.source_gone');
        const input = path.join(dir, 'source.mp4');
        await deps.media.download(opened.stream, input, { expectedBytes: opened.size, signal });
        const probed = await probeVideo(deps.media, input, signal);
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
        return deps.results.save({
          key: String(data.key),
          kind: 'caption-render',
          platform: 'studio',
          videoId: null,
          file: output,
          ext: 'mp4',
          contentType: 'video/mp4',
          size,
          meta: { fileName: transcriptFileName(project.title, '_captions.mp4'), projectId: row.id },
        });
      },
      who,
    );
  });
}

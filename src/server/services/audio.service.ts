// Audio extractor: the video's sound (or a photo post's music) as MP3 192 kbit/s CBR, made by a
// media job (any worker node), stored once per video and handed out as an expiring signed link.
import path from 'node:path';
import type { AudioResult } from '../../shared/contracts/audio.js';
import { transcriptFileName } from '../../shared/captions.js';
import type { MediaProcessor } from '../adapters/media/media-processor.js';
import type { JobOwner } from '../jobs/catalogue.js';
import type { MediaResultsService } from './media-results.service.js';
import type { MediaSource, MediaVideoInfo } from './media-source.js';
import type { MediaResult } from '../db/repositories/media-results.repository.js';
import { defineMediaJob } from './media-job.js';
import type { MediaJobs, PendingJob } from './media-jobs.service.js';
import { mediaKeyId } from '../platforms/platform.js';
import { unsupportedLink } from '../platforms/errors.js';

export interface AudioServiceDeps {
  source: MediaSource;
  media: MediaProcessor;
  results: MediaResultsService;
  jobs: MediaJobs;
}

export function createAudioService(deps: AudioServiceDeps) {
  const shape = (info: MediaVideoInfo, row: MediaResult): AudioResult => {
    const meta = (row.meta ?? {}) as { duration?: number };
    return {
      title: info.title,
      author: info.author,
      duration: Math.round(meta.duration ?? info.duration),
      size: String(row.size),
      audioUrl: deps.results.link(row),
    };
  };

  // On whichever node runs it: the request's lookup when it waits on this node (one lookup per
  // job), else its own; then the extraction.
  const job = defineMediaJob(deps, {
    kind: 'audio',
    key: (_data, info: MediaVideoInfo) => `audio:${mediaKeyId(info)}`,
    load: ({ url }, signal) => deps.source.lookup(url, signal),
    async produce({ data, source: info, dir, signal, save }) {
      const opened = await deps.source.openAudioSource(data.url, info, signal);
      const input = path.join(dir, 'input.media');
      await deps.media.download(opened.stream, input, { expectedBytes: opened.length, signal });
      const output = path.join(dir, 'audio.mp3');
      const { size, duration } = await deps.media.toMp3(input, output, signal);
      return save({
        platform: info.platform,
        videoId: info.videoId,
        file: output,
        ext: 'mp3',
        contentType: 'audio/mpeg',
        size,
        meta: { duration, title: info.title, fileName: transcriptFileName(info.title, '.mp3') },
      });
    },
  });

  return {
    /** Requests on this node waiting for the extraction of `key` (`audio:<videoId>`). */
    waiting: (key: string) => deps.jobs.waiting(key),
    /** Two people extracting one video share one job; `respondAsync`: where it stands instead of waiting. */
    async extract(
      url: string,
      signal?: AbortSignal,
      owner?: JobOwner,
      opts: { respondAsync?: boolean } = {},
    ): Promise<AudioResult | PendingJob> {
      // The one refusal of a link, naming the platforms this server has.
      if (!deps.source.recognises(url)) throw unsupportedLink(deps.source.platformNames());
      const info = await deps.source.lookup(url, signal);
      // A kept MP3 comes straight back from run(); otherwise the job makes it.
      const out = await job.run({ data: { url }, source: info, owner }, signal, opts);
      return 'state' in out ? out : shape(info, out);
    },
  };
}
export type AudioService = ReturnType<typeof createAudioService>;

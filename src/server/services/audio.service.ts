// Audio extractor: the video's sound (or a photo post's music) as MP3 192 kbit/s CBR, stored once
// per video and handed out as an expiring signed link.
import path from 'node:path';
import type { AudioResult } from '../../shared/contracts/audio.js';
import { transcriptFileName } from '../../shared/captions.js';
import type { MediaProcessor } from '../adapters/media/media-processor.js';
import type { JobOwner } from '../adapters/media/worker-pool.js';
import type { MediaResultsService } from './media-results.service.js';
import type { MediaSource, MediaVideoInfo } from './media-source.js';
import type { MediaResult } from '../db/repositories/media-results.repository.js';
import { createSharedRuns } from '../lib/shared-runs.js';
import { mediaKeyId } from '../platforms/platform.js';
import { platformList } from '../platforms/errors.js';
import { fail } from '../errors.js';

export interface AudioServiceDeps {
  source: MediaSource;
  media: MediaProcessor;
  results: MediaResultsService;
}

export function createAudioService(deps: AudioServiceDeps) {
  // Two people extracting the same video at once share one ffmpeg run, which lives while either waits.
  const inflight = createSharedRuns<MediaResult>();

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

  async function produce(url: string, info: MediaVideoInfo, key: string, signal?: AbortSignal, who?: JobOwner): Promise<MediaResult> {
    return deps.media.job(signal, async (dir) => {
      const opened = await deps.source.openAudioSource(url, info, signal);
      const input = path.join(dir, 'input.media');
      await deps.media.download(opened.stream, input, { expectedBytes: opened.length, signal });
      const output = path.join(dir, 'audio.mp3');
      const { size, duration } = await deps.media.toMp3(input, output, signal);
      return deps.results.save({
        key,
        kind: 'audio',
        platform: info.platform,
        videoId: info.videoId,
        file: output,
        ext: 'mp3',
        contentType: 'audio/mpeg',
        size,
        meta: { duration, title: info.title, fileName: transcriptFileName(info.title, '.mp3') },
      });
    }, who);
  }

  return {
    /** Requests waiting for the extraction of `key` (`audio:<videoId>`). */
    waiting: (key: string) => inflight.waiting(key),
    /** `who`: the first requester, whose place in the media pool the shared run takes. */
    async extract(url: string, signal?: AbortSignal, who?: JobOwner): Promise<AudioResult> {
      // SPEC 5's message, naming the platforms this server has.
      if (!deps.source.recognises(url)) throw fail('link.unsupported', { platforms: platformList(deps.source.platformNames()) });
      const info = await deps.source.lookup(url, signal);
      const key = `audio:${mediaKeyId(info)}`;
      const stored = await deps.results.find(key);
      if (stored) return shape(info, stored);
      return shape(info, await inflight.run(key, signal, (shared) => produce(url, info, key, shared, who)));
    },
  };
}
export type AudioService = ReturnType<typeof createAudioService>;

// The sharpest file a platform has, with sound (issue 20, decision 0014): an HEVC video-only gear and
// its best sound track, both fetched at once with the page's cookies into a job's temp dir,
// remuxed by stream copy in a media job (any worker node), kept in the media store under
// `remux:<videoId>:<quality>` for the result TTL. A second download of the same file costs no CDN
// traffic and no ffmpeg run; concurrent requests share one job, which lives while anyone waits.
import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError, fail } from '../errors.js';
import type { MediaProcessor } from '../adapters/media/media-processor.js';
import type { JobOwner } from '../adapters/media/worker-pool.js';
import { remuxVideoAndSound } from '../adapters/media/remux.js';
import { mediaKeyId, type FetchedVideo, type MediaOption } from '../platforms/platform.js';
import { optionFile } from '../platforms/video-model.js';
import type { MediaResult } from '../db/repositories/media-results.repository.js';
import type { MediaJobs } from './media-jobs.service.js';
import type { MediaResultsService } from './media-results.service.js';
import type { VideoService } from './video.service.js';

/** A gear or sound track the CDN would not give (403/404/gone) or sent unreadable: the caller falls back. */
const GONE = new Set([
  'video.not_found',
  'upstream.unavailable',
  'upstream.incomplete',
  'media.empty',
  'media.unreadable',
]);
export const isGone = (err: unknown) => err instanceof AppError && GONE.has(err.code);

export interface RemuxedFile {
  stream: Readable;
  size: number;
}

export function createRemuxService(deps: {
  video: VideoService;
  media: MediaProcessor;
  results: MediaResultsService;
  jobs: MediaJobs;
}) {
  function produce(
    video: FetchedVideo,
    option: MediaOption,
    key: string,
    signal: AbortSignal,
    who: JobOwner,
  ): Promise<MediaResult> {
    return deps.media.job(
      signal,
      async (dir) => {
        // When one part fails the other stops too: nothing keeps downloading into a removed dir.
        const parts = new AbortController();
        const partSignal = AbortSignal.any([signal, parts.signal]);
        const fetchTo = async (file: string, urls: string[]) => {
          const opened = await deps.video.openMedia(video.ref.url, { kind: 'video', mediaUrls: urls }, partSignal, {
            bulk: true,
          });
          await deps.media.download(opened.stream, file, { expectedBytes: opened.contentLength, signal: partSignal });
        };
        const videoFile = path.join(dir, 'video.mp4');
        const soundFile = path.join(dir, 'sound.m4a');
        // The sound: the best track that answers; none at all means no file (never a silent one).
        const sound = (async () => {
          let last: unknown = fail('video.sound_unavailable', {
            platform: deps.video.platformName(video.ref.platform),
          });
          for (const track of option.audio ?? []) {
            try {
              return await fetchTo(soundFile, track);
            } catch (err) {
              if (!isGone(err)) throw err;
              last = err;
            }
          }
          throw last;
        })();
        const both = [fetchTo(videoFile, option.urls), sound];
        try {
          await Promise.all(both);
        } catch (err) {
          // The first failure stops the other part, and both settle before the temp dir goes.
          parts.abort();
          await Promise.allSettled(both);
          throw err;
        }
        const output = path.join(dir, 'remuxed.mp4');
        const size = await remuxVideoAndSound(deps.media, videoFile, soundFile, output, signal);
        return deps.results.save({
          key,
          kind: 'remux',
          platform: video.ref.platform,
          videoId: video.video.id,
          file: output,
          ext: 'mp4',
          contentType: 'video/mp4',
          size,
          meta: { quality: option.quality },
        });
      },
      who,
    );
  }

  // The job, on whichever node runs it: the request's lookup when it waits on this node (one
  // lookup per job), else its own; then the remux.
  deps.jobs.register('remux', async (data, signal, who, local) => {
    const video = (local as FetchedVideo | undefined) ?? (await deps.video.byId(data.videoId, signal, data.platform));
    const option = optionFile(video.video.options, String(data.quality), Number(data.alternate ?? 0));
    if (option?.form !== 'split')
      throw fail('upstream.unavailable', { variant: 'refused', platform: deps.video.platformName(video.ref.platform) });
    return produce(video, option, String(data.key), signal, who);
  });

  return {
    /** The stored remux of `option`, made now if it is not kept yet; throws (isGone) when a part is missing. */
    async ensure(
      video: FetchedVideo,
      option: MediaOption,
      signal?: AbortSignal,
      who?: JobOwner,
      alternate = 0,
    ): Promise<MediaResult> {
      // The option's other files of that size are kept apart: each is one remux.
      const key = `remux:${mediaKeyId(video.ref)}:${option.quality}${alternate ? `~${alternate}` : ''}`;
      // No retries: a part that does not come is a fallback to the next file, at once.
      const data = { platform: video.ref.platform, videoId: video.ref.id, quality: option.quality, alternate };
      return (await deps.jobs.run({ kind: 'remux', key, data, who, retry: false }, signal, {
        local: video,
      })) as MediaResult;
    },
    /** The remuxed file of `option` as a stream, from the store or made now. */
    async open(
      video: FetchedVideo,
      option: MediaOption,
      signal?: AbortSignal,
      who?: JobOwner,
      alternate = 0,
    ): Promise<RemuxedFile> {
      const row = await this.ensure(video, option, signal, who, alternate);
      const opened = await deps.results.openRow(row);
      if (!opened) throw fail('media.store_unavailable');
      return opened;
    },
  };
}
export type RemuxService = ReturnType<typeof createRemuxService>;

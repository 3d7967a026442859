// A split file with its sound (issue 20, decision 0014; any platform, issue 44): a video-only file
// and its best sound track, both fetched at once with the page's cookies, remuxed by stream copy in a
// media job (any worker node) as they arrive, into a fragmented MP4 that requests on the job's node
// read while it grows (issue 38, decision 0073); kept in the media store, rewritten with its index
// first, under `remux:<videoId>:<quality>` for the result TTL. A second download of the same file
// costs no CDN traffic and no ffmpeg run; concurrent requests share one job, which lives while
// anyone waits or reads.
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { AppError, fail } from '../errors.js';
import type { MediaProcessor } from '../adapters/media/media-processor.js';
import type { JobOwner } from '../jobs/catalogue.js';
import { type RemuxPart, remuxStreaming, rewriteFaststart } from '../adapters/media/remux.js';
import { GrowingFile } from '../adapters/media/growing-file.js';
import { peekSound } from '../adapters/media/mp4-head.js';
import { mediaKeyId, type FetchedVideo, type MediaOption } from '../platforms/platform.js';
import { optionFile } from '../platforms/video-model.js';
import type { MediaResult } from '../db/repositories/media-results.repository.js';
import { defineMediaJob } from './media-job.js';
import type { MediaJobs } from './media-jobs.service.js';
import type { MediaResultsService } from './media-results.service.js';
import type { OpenedVideoMedia, VideoService } from './video.service.js';

/** A gear or sound track the CDN would not give (403/404/gone) or sent unreadable: the caller falls back. */
const GONE = new Set([
  'video.not_found',
  'upstream.unavailable',
  'upstream.incomplete',
  'media.empty',
  'media.unreadable',
  'upstream.not_media',
]);
export const isGone = (err: unknown) => err instanceof AppError && GONE.has(err.code);

export interface RemuxedFile {
  stream: Readable;
  /** Exact bytes: known for a stored file; null while the file is being made. */
  size: number | null;
  /** The expected size (the parts' sizes while it is made), for the progress bar only. */
  expectedBytes: number | null;
}

export function createRemuxService(deps: {
  video: VideoService;
  media: MediaProcessor;
  results: MediaResultsService;
  jobs: MediaJobs;
}) {
  // The job, on whichever node runs it: the request's lookup when it waits on this node (one
  // lookup per job), else its own by id; then the remux.
  const job = defineMediaJob(deps, {
    kind: 'remux',
    // The option's other files of that size are kept apart: each is one remux.
    key: ({ platform, videoId, quality, alternate }) =>
      `remux:${mediaKeyId({ platform, id: videoId })}:${quality}${alternate ? `~${alternate}` : ''}`,
    load: ({ platform, videoId }, signal): Promise<FetchedVideo> => deps.video.byId(videoId, signal, platform),
    async produce({ data, source: video, dir, signal, save, live }) {
      const option = optionFile(video.video.options, data.quality, data.alternate ?? 0);
      if (option?.form !== 'split')
        throw fail('upstream.unavailable', {
          variant: 'refused',
          platform: deps.video.platformName(video.ref.platform),
        });
      // When one part fails the other stops too, and so does ffmpeg: nothing waits on a dead part.
      const parts = new AbortController();
      const partSignal = AbortSignal.any([signal, parts.signal]);
      let partFailure: unknown = null;
      const stop = (err: unknown) => {
        partFailure ??= err;
        parts.abort();
      };
      const open = (urls: string[]) =>
        deps.video.openMedia(video.ref.url, { kind: 'video', mediaUrls: urls }, partSignal, { bulk: true });
      // The sound: the best track that answers; none at all means no file (never a silent one).
      const openSound = async () => {
        let last: unknown = fail('video.sound_unavailable', {
          platform: deps.video.platformName(video.ref.platform),
        });
        for (const track of option.audio ?? []) {
          try {
            return await open(track);
          } catch (err) {
            if (!isGone(err)) throw err;
            last = err;
          }
        }
        throw last;
      };
      // Both parts answer before ffmpeg starts: a part that is gone falls back before any byte is sent.
      const opened = await Promise.allSettled([open(option.urls), openSound()]);
      const failed = opened.find((o) => o.status === 'rejected');
      if (failed) {
        for (const o of opened) if (o.status === 'fulfilled') o.value.stream.destroy();
        throw failed.reason;
      }
      const [gear, sound] = opened.map((o) => (o as PromiseFulfilledResult<OpenedVideoMedia>).value);
      const expected =
        gear.contentLength !== null && sound.contentLength !== null ? gear.contentLength + sound.contentLength : null;
      const output = new GrowingFile(path.join(dir, 'remuxed-fragmented.mp4'), expected);
      try {
        // The first failure stops the other part, and both settle before the temp dir goes.
        const asked = [
          asPart(gear, path.join(dir, 'video.mp4'), partSignal, stop),
          asPart(sound, path.join(dir, 'sound.m4a'), partSignal, stop),
        ];
        for (const p of asked) p.catch(stop);
        const got = await Promise.allSettled(asked);
        if (got.some((g) => g.status === 'rejected')) throw partFailure;
        const [videoPart, soundPart] = got.map((g) => (g as PromiseFulfilledResult<RemuxPart>).value);
        // Requests on this node read the file once ffmpeg wrote its head (both parts were readable).
        output.firstBytes().then(
          () => live(output),
          () => undefined,
        );
        let size: number;
        try {
          size = await remuxStreaming(
            deps.media,
            { video: videoPart, audio: soundPart },
            output,
            partSignal,
            option.codec,
          );
        } catch (err) {
          throw partFailure ?? err;
        }
        // Sent whole; the stored copy gets its index first (decision 0073), off the request's path.
        const faststart = path.join(dir, 'remuxed.mp4');
        const stored = await rewriteFaststart(deps.media, output.path, faststart, signal, option.codec).then(
          (n) => ({ file: faststart, size: n }),
          (err) => {
            if (signal.aborted) throw err;
            return { file: output.path, size };
          },
        );
        return await save({
          platform: video.ref.platform,
          videoId: video.video.id,
          file: stored.file,
          ext: 'mp4',
          contentType: 'video/mp4',
          size: stored.size,
          meta: { quality: option.quality },
        });
      } catch (err) {
        output.fail(err instanceof Error ? err : new Error(String(err)));
        throw err;
      }
    },
  });

  /**
   * A part as ffmpeg reads it: a pipe fed as the bytes arrive when its index comes first (DASH
   * gears), else the whole file on disk (an index at the end needs seeking). A piped part that
   * breaks or comes short calls `stop`, which ends ffmpeg: its output is never taken as whole.
   */
  async function asPart(
    opened: OpenedVideoMedia,
    file: string,
    signal: AbortSignal,
    stop: (err: unknown) => void,
  ): Promise<RemuxPart> {
    // The part may have broken while the other one was still being opened: the read fails at once.
    const head = await peekSound(opened.stream, opened.release).catch(() => {
      opened.stream.destroy();
      throw fail('upstream.incomplete'); // cut before its head arrived
    });
    if (head.sound === null) {
      await deps.media.download(head.stream, file, { expectedBytes: opened.contentLength, signal });
      return file;
    }
    const max = deps.media.config.maxInputBytes;
    let bytes = 0;
    const checked = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        bytes += chunk.length;
        if (bytes > max) return cb(fail('media.too_large'));
        cb(null, chunk);
      },
      // The pipe is ended only after every announced byte came: ffmpeg never sees a short part end.
      flush(cb) {
        if (opened.contentLength !== null && bytes !== opened.contentLength) return cb(fail('upstream.incomplete'));
        cb(bytes === 0 ? fail('media.empty') : null);
      },
    });
    checked.on('error', stop);
    head.stream.on('error', () => stop(signal.aborted ? fail('request.aborted') : fail('upstream.incomplete')));
    signal.addEventListener('abort', () => head.stream.destroy(), { once: true });
    head.stream.pipe(checked);
    return checked;
  }

  return {
    /** The stored remux of `option`, made now if it is not kept yet; throws (isGone) when a part is missing. */
    async ensure(
      video: FetchedVideo,
      option: MediaOption,
      signal?: AbortSignal,
      owner?: JobOwner,
      alternate = 0,
    ): Promise<MediaResult> {
      const data = { platform: video.ref.platform, videoId: video.ref.id, quality: option.quality, alternate };
      return job.run({ data, source: video, owner }, signal);
    },
    /** The remuxed file of `option` as a stream: from the store, or read while it is made. */
    async open(
      video: FetchedVideo,
      option: MediaOption,
      signal?: AbortSignal,
      owner?: JobOwner,
      alternate = 0,
    ): Promise<RemuxedFile> {
      const data = { platform: video.ref.platform, videoId: video.ref.id, quality: option.quality, alternate };
      const got = await job.runLive({ data, source: video, owner }, signal);
      // Being made on this node: its bytes as they are written (issue 38).
      if ('live' in got) return { stream: got.live, size: null, expectedBytes: got.expectedBytes };
      const opened = await deps.results.openRow(got);
      if (!opened) throw fail('media.store_unavailable');
      return { ...opened, expectedBytes: opened.size };
    },
  };
}
export type RemuxService = ReturnType<typeof createRemuxService>;

// Media jobs: a pool slot, a temporary directory, the download written to disk (seekable-safe),
// ffmpeg runs with limits, and errors turned into clear API errors.
import os from 'node:os';
import type { Readable } from 'node:stream';
import { fail, infrastructureError } from '../../errors.js';
import { apiUploadArgs, mp3Args, NO_AUDIO_STDERR, parseProgressTime } from './ffmpeg-args.js';
import { checkOutputFile, probe, ProcessError, runProcess, type ProbeResult } from './media-runner.js';
import { streamToFile, withTempDir } from './temp-files.js';
import { createWorkerPool, type WorkerPool } from './worker-pool.js';

export interface MediaProcessorConfig {
  ffmpeg: string;
  ffprobe: string;
  tmpRoot: string;
  timeoutMs: number;
  maxInputBytes: number;
  concurrency?: number;
  maxQueue?: number;
}

export const noAudio = () => fail('media.no_audio');

export const unreadable = () => fail('media.unreadable');

/** Turns a failed process into the error a person can act on. */
export function processFailure(err: unknown): unknown {
  if (!(err instanceof ProcessError)) return err;
  if (err.reason === 'aborted') return fail('request.aborted');
  if (err.reason === 'timeout') return fail('media.timeout');
  if (err.reason === 'spawn') return fail('media.unavailable');
  if (err.reason === 'killed') return fail('media.interrupted');
  if (/No space left on device/i.test(err.stderr)) return infrastructureError({ code: 'ENOSPC' }) ?? unreadable();
  return unreadable();
}

export function createMediaProcessor(cfg: MediaProcessorConfig) {
  const concurrency = cfg.concurrency ?? Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
  const pool: WorkerPool = createWorkerPool({ concurrency, maxQueue: cfg.maxQueue ?? concurrency * 4 });
  const run = (signal?: AbortSignal) => ({ timeoutMs: cfg.timeoutMs, signal });

  const wrap = async <T>(p: Promise<T>): Promise<T> => {
    try {
      return await p;
    } catch (err) {
      throw processFailure(err);
    }
  };

  return {
    config: cfg,
    pool,
    /** Runs `fn` in a pool slot with a fresh temporary directory that is always removed. */
    job<T>(signal: AbortSignal | undefined, fn: (dir: string) => Promise<T>): Promise<T> {
      return pool.run(() => withTempDir(cfg.tmpRoot, fn), signal);
    },
    /** Writes the download to disk; a stalled upstream ends at the media time limit. */
    async download(source: Readable, file: string, opts: { expectedBytes?: number | null; signal?: AbortSignal }) {
      const limit = AbortSignal.timeout(cfg.timeoutMs);
      const signal = opts.signal ? AbortSignal.any([opts.signal, limit]) : limit;
      try {
        return await streamToFile(source, file, {
          maxBytes: cfg.maxInputBytes,
          expectedBytes: opts.expectedBytes,
          signal,
        });
      } catch (err) {
        if (limit.aborted && !opts.signal?.aborted) throw fail('media.timeout', { variant: 'arrival' });
        throw err;
      }
    },
    async probe(file: string, signal?: AbortSignal): Promise<ProbeResult> {
      try {
        return await probe(cfg.ffprobe, file, run(signal));
      } catch (err) {
        if (err instanceof SyntaxError) throw unreadable();
        throw processFailure(err);
      }
    },
    /**
     * The input's first audio stream as MP3 192k CBR, in one ffmpeg run (no probes: the benchmark
     * goal is <= 1.3x plain ffmpeg). Checks: ffmpeg's own errors (-xerror), a non-empty output, an
     * output time from -progress, and a size that matches 192 kbit/s for that time.
     */
    async toMp3(input: string, output: string, signal?: AbortSignal): Promise<{ size: number; duration: number }> {
      let result: Awaited<ReturnType<typeof runProcess>>;
      try {
        result = await runProcess(cfg.ffmpeg, mp3Args(input, output), run(signal));
      } catch (err) {
        if (err instanceof ProcessError && err.reason === 'exit' && NO_AUDIO_STDERR.test(err.stderr)) throw noAudio();
        throw processFailure(err);
      }
      const size = checkOutputFile(output, cfg.maxInputBytes);
      const duration = parseProgressTime(result.stdout);
      if (!(duration > 0) || size < duration * (192_000 / 8) * 0.9) throw unreadable();
      return { size, duration };
    },
    /** Small mono MP3 for a transcription API upload. */
    async toUpload(input: string, output: string, signal?: AbortSignal): Promise<void> {
      await wrap(runProcess(cfg.ffmpeg, apiUploadArgs(input, output), run(signal)));
      checkOutputFile(output, 25 * 1024 * 1024);
    },
    wrap,
  };
}
export type MediaProcessor = ReturnType<typeof createMediaProcessor>;

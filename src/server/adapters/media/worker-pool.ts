// A bounded pool for media jobs: `concurrency` run at once, up to `maxQueue` wait; beyond that
// the caller gets 503 media.busy with Retry-After instead of the box collapsing under ffmpeg.
import { AppError } from '../../errors.js';

export interface WorkerPool {
  run<T>(job: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  stats(): { running: number; queued: number; concurrency: number; maxQueue: number };
}

export function createWorkerPool(opts: { concurrency: number; maxQueue: number; retryAfterSeconds?: number }): WorkerPool {
  const concurrency = Math.max(1, opts.concurrency);
  let running = 0;
  const queue: Array<{ start: () => void; cancel: () => void }> = [];

  const next = () => {
    while (running < concurrency && queue.length) queue.shift()!.start();
  };

  return {
    stats: () => ({ running, queued: queue.length, concurrency, maxQueue: opts.maxQueue }),
    run<T>(job: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      if (signal?.aborted) return Promise.reject(new AppError(499, 'request.aborted', 'The request was cancelled.'));
      if (running >= concurrency && queue.length >= opts.maxQueue) {
        const retry = String(opts.retryAfterSeconds ?? 10);
        return Promise.reject(
          new AppError(503, 'media.busy', 'The media workers are busy right now. Please try again in a few seconds.', {}, { 'retry-after': retry }),
        );
      }
      return new Promise<T>((resolve, reject) => {
        const entry = {
          start: () => {
            signal?.removeEventListener('abort', onAbort);
            running++;
            job()
              .then(resolve, reject)
              .finally(() => {
                running--;
                next();
              });
          },
          cancel: () => reject(new AppError(499, 'request.aborted', 'The request was cancelled.')),
        };
        const onAbort = () => {
          const i = queue.indexOf(entry);
          if (i >= 0) {
            queue.splice(i, 1);
            entry.cancel();
          }
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(entry);
        next();
      });
    },
  };
}

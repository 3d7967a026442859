// A plain concurrency limit for media work on this node: `concurrency` run at once, up to
// `maxQueue` wait their turn in arrival order; beyond that the caller gets 503 media.busy with
// Retry-After instead of the box collapsing under ffmpeg. Every caller is a queue job already
// (decision 0023): priority (Pro first) and fairness between owners are the job queue's, not this.
import { fail, retryAfter } from '../../errors.js';

export interface WorkerPool {
  /** Runs `job` when a slot is free. */
  run<T>(job: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  stats(): { running: number; queued: number; concurrency: number; maxQueue: number };
}

export function createWorkerPool(opts: {
  concurrency: number;
  maxQueue: number;
  retryAfterSeconds?: number;
}): WorkerPool {
  const concurrency = Math.max(1, opts.concurrency);
  let running = 0;
  const queue: Array<() => void> = [];
  const busy = () =>
    fail('media.busy', undefined, {}, opts.retryAfterSeconds === undefined ? {} : retryAfter(opts.retryAfterSeconds));
  const next = () => {
    while (running < concurrency && queue.length) queue.shift()?.();
  };

  return {
    stats: () => ({ running, queued: queue.length, concurrency, maxQueue: opts.maxQueue }),
    run<T>(job: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      if (signal?.aborted) return Promise.reject(fail('request.aborted'));
      if (running >= concurrency && queue.length >= opts.maxQueue) return Promise.reject(busy());
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          signal?.removeEventListener('abort', onAbort);
          running++;
          job()
            .then(resolve, reject)
            .finally(() => {
              running--;
              next();
            });
        };
        const onAbort = () => {
          const i = queue.indexOf(start);
          if (i >= 0) {
            queue.splice(i, 1);
            reject(fail('request.aborted'));
          }
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(start);
        next();
      });
    },
  };
}

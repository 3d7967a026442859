// One run per key, shared by everyone who asks for it while it runs (two people extracting the
// same video share one ffmpeg job). The run lives while anyone still waits: a waiter that leaves
// only stops waiting; the run is cancelled when the last one leaves.
import { fail } from '../errors.js';

const aborted = () => fail('request.aborted');

interface Run<T> {
  promise: Promise<T>;
  waiters: number;
  controller: AbortController;
}

export function createSharedRuns<T>() {
  const runs = new Map<string, Run<T>>();

  return {
    /** How many requests wait for the run of `key` (0 when none runs). */
    waiting(key: string): number {
      return runs.get(key)?.waiters ?? 0;
    },
    run(key: string, signal: AbortSignal | undefined, start: (signal: AbortSignal) => Promise<T>): Promise<T> {
      if (signal?.aborted) return Promise.reject(aborted());
      let run = runs.get(key);
      if (!run) {
        const controller = new AbortController();
        const created: Run<T> = { controller, waiters: 0, promise: start(controller.signal) };
        created.promise
          .catch(() => undefined)
          .finally(() => {
            if (runs.get(key) === created) runs.delete(key);
          });
        runs.set(key, created);
        run = created;
      }
      const shared = run;
      shared.waiters++;
      return new Promise<T>((resolve, reject) => {
        let settled = false;
        /** Settles this waiter once: the run's outcome, or its own leaving. */
        const settle = (outcome: () => void) => {
          if (settled) return;
          settled = true;
          shared.waiters--;
          signal?.removeEventListener('abort', leave);
          outcome();
        };
        const leave = () =>
          settle(() => {
            if (shared.waiters === 0) {
              // Nobody waits any more: stop the work, and let the next request start afresh.
              if (runs.get(key) === shared) runs.delete(key);
              shared.controller.abort();
            }
            reject(aborted());
          });
        signal?.addEventListener('abort', leave, { once: true });
        shared.promise.then(
          (value) => settle(() => resolve(value)),
          (err) => settle(() => reject(err)),
        );
      });
    },
  };
}

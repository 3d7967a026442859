// A bounded pool for media jobs: `concurrency` run at once, up to `maxQueue` wait; beyond that
// the caller gets 503 media.busy with Retry-After instead of the box collapsing under ffmpeg.
// Waiting jobs are not first come, first served (issue 21, priority processing): a higher
// `priority` (Pro) goes first, and among equals the owner running the fewest jobs, so one person
// starting twelve extractions cannot hold every slot; nor may one owner fill more than half the
// waiting line.
import { fail, retryAfter } from '../../errors.js';

export interface JobOwner {
  /** Who waits for this job (a user id); jobs without one share the anonymous owner. */
  owner?: string;
  /** Higher first: Pro's jobs before free users'. */
  priority?: number;
}

export interface WorkerPool {
  run<T>(job: () => Promise<T>, signal?: AbortSignal, who?: JobOwner): Promise<T>;
  stats(): { running: number; queued: number; concurrency: number; maxQueue: number };
}

interface Waiting {
  seq: number;
  owner: string;
  priority: number;
  start: () => void;
  cancel: () => void;
}

export function createWorkerPool(opts: {
  concurrency: number;
  maxQueue: number;
  retryAfterSeconds?: number;
}): WorkerPool {
  const concurrency = Math.max(1, opts.concurrency);
  const ownerShare = Math.max(1, Math.ceil(opts.maxQueue / 2));
  let running = 0;
  let seq = 0;
  const runningOf = new Map<string, number>();
  const lastServed = new Map<string, number>();
  let served = 0;
  const queue: Waiting[] = [];
  const busy = () =>
    fail('media.busy', undefined, {}, opts.retryAfterSeconds === undefined ? {} : retryAfter(opts.retryAfterSeconds));

  /**
   * The next job: highest priority; then the owner running the fewest jobs; then the owner served
   * least recently (a round robin between owners); then the oldest.
   */
  const order = (w: Waiting) => [-w.priority, runningOf.get(w.owner) ?? 0, lastServed.get(w.owner) ?? -1, w.seq];
  const pick = (): number => {
    let best = 0;
    for (let i = 1; i < queue.length; i++) {
      const a = order(queue[i]);
      const b = order(queue[best]);
      const k = a.findIndex((v, j) => v !== b[j]);
      if (k >= 0 && a[k] < b[k]) best = i;
    }
    return best;
  };
  const next = () => {
    while (running < concurrency && queue.length) queue.splice(pick(), 1)[0].start();
  };

  return {
    stats: () => ({ running, queued: queue.length, concurrency, maxQueue: opts.maxQueue }),
    run<T>(job: () => Promise<T>, signal?: AbortSignal, who: JobOwner = {}): Promise<T> {
      if (signal?.aborted) return Promise.reject(fail('request.aborted'));
      const owner = who.owner ?? '';
      if (
        running >= concurrency &&
        (queue.length >= opts.maxQueue || (owner && queue.filter((w) => w.owner === owner).length >= ownerShare))
      )
        return Promise.reject(busy());
      return new Promise<T>((resolve, reject) => {
        const entry: Waiting = {
          seq: seq++,
          owner,
          priority: who.priority ?? 0,
          start: () => {
            signal?.removeEventListener('abort', onAbort);
            running++;
            runningOf.set(owner, (runningOf.get(owner) ?? 0) + 1);
            lastServed.set(owner, served++);
            job()
              .then(resolve, reject)
              .finally(() => {
                running--;
                const left = (runningOf.get(owner) ?? 1) - 1;
                if (left) runningOf.set(owner, left);
                else runningOf.delete(owner);
                // Forget owners with nothing left, so the maps stay as small as the pool.
                if (!left && !queue.some((w) => w.owner === owner)) lastServed.delete(owner);
                next();
              });
          },
          cancel: () => reject(fail('request.aborted')),
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

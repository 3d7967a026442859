// A queue's workers on this node where one owner holds at most its share of the slots (issue 42):
// `concurrency` jobs at once, at most `share` of them with the same `data.owner`. The next job is
// fetched with the owners at their share left out (pg-boss's fetch with `ignoreGroups`, a job's
// group being its owner: job-queue.ts), so their extra
// jobs stay in line, in their place, without holding a slot, and the others' start meanwhile (no
// head-of-line blocking); when one of an owner's jobs ends, its next one may be fetched. Each node
// counts only its own slots: on several nodes an owner may hold its share on each.
// pg-boss's own worker has a per-group limit (localGroupConcurrency) but tells no one when it has
// settled a job, and waiters here re-read a job on news of its end (job-news.ts); so this loop
// does what pg-boss's worker does: fetch, run within the job's time limit, then complete or fail
// (pg-boss's calls: its retry rule applies), and tells the news once the job is settled.

/** A job taken by the fetch, as pg-boss's fetch gives it (includeMetadata). */
export interface FetchedJob {
  id: string;
  data: Record<string, unknown> | null;
  retryCount: number;
  retryLimit: number;
  expireInSeconds: number;
}

export interface FairWorkerDeps {
  concurrency: number;
  share: number;
  /** How long an idle loop waits before it looks again (a send on this node wakes it at once). */
  pollingMs: number;
  fetch(skipOwners: string[]): Promise<FetchedJob | undefined>;
  run(job: FetchedJob): Promise<unknown>;
  complete(id: string, output: unknown): Promise<unknown>;
  fail(id: string, err: unknown): Promise<unknown>;
  /** The job started or ended (its waiters re-read it). */
  changed(id: string): void;
  onError(err: unknown): void;
}

const timeLimit = (seconds: number) => {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`handler execution exceeded ${seconds}s`)), seconds * 1000);
  });
  return { expired, clear: () => clearTimeout(timer) };
};

export function createFairWorker(deps: FairWorkerDeps) {
  const concurrency = Math.max(1, deps.concurrency);
  const share = Math.max(1, deps.share);
  const held = new Map<string, number>();
  const ended = new Set<Promise<unknown>>();
  let running = 0;
  let fetching = false;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const hold = (owner: string, d: number) => {
    const n = (held.get(owner) ?? 0) + d;
    if (n > 0) held.set(owner, n);
    else held.delete(owner);
  };

  function start(job: FetchedJob) {
    const owner = String(job.data?.owner ?? '');
    running++;
    hold(owner, 1);
    deps.changed(job.id);
    const limit = timeLimit(job.expireInSeconds || 15 * 60);
    const done = Promise.race([deps.run(job), limit.expired])
      .then(
        (output) => deps.complete(job.id, output),
        (err: unknown) => deps.fail(job.id, err),
      )
      .catch(deps.onError)
      .finally(() => {
        limit.clear();
        running--;
        hold(owner, -1);
        ended.delete(done);
        deps.changed(job.id);
        wake();
      });
    ended.add(done);
  }

  /** Fetches while there are free slots; called on a send, after every job and every polling interval. */
  async function pump() {
    if (stopped) return;
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    clearTimeout(timer);
    try {
      do {
        again = false;
        while (!stopped && running < concurrency) {
          const full = [...held].filter(([, n]) => n >= share).map(([o]) => o);
          const job = await deps.fetch(full);
          if (!job) break;
          start(job);
        }
      } while (again && !stopped);
    } catch (err) {
      deps.onError(err);
    } finally {
      fetching = false;
      if (!stopped) timer = setTimeout(() => void pump(), deps.pollingMs);
    }
  }
  const wake = () => void pump();

  return {
    wake,
    stats: () => ({ running, held: Object.fromEntries(held) }),
    /** Stops fetching and waits (at most `timeoutMs`) for the running jobs to end (their signals are aborted by the caller). */
    async stop(timeoutMs: number) {
      stopped = true;
      clearTimeout(timer);
      let t: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...ended]),
        new Promise((r) => {
          t = setTimeout(r, timeoutMs);
        }),
      ]);
      clearTimeout(t);
    },
  };
}

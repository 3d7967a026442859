// The long polls of GET /api/media-jobs/:id (issue 42, decision 0072): at most LONG_POLLS_PER_ACCOUNT
// held at once per account on this node (beyond that the status is answered at once, and the
// client's loop polls gently, as it does with a server that does not hold), and a held poll reads
// the job again only on news of it (the queue's, from any node) or once in a while, in case news
// was lost, instead of every 250 ms.
import type { JobQueue } from '../adapters/jobs/job-queue.js';

/** A held poll reads its job again at least this often, even without news (news lost in a reconnect). */
export const SAFETY_RECHECK_MS = 5000;

export function createLongPolls(deps: { queue: Pick<JobQueue, 'onNews'>; perAccount: number }) {
  const open = new Map<string, number>();
  return {
    /** Takes one of `account`'s long polls; false when it holds all of its own already. */
    take(account: string): boolean {
      const n = open.get(account) ?? 0;
      if (n >= deps.perAccount) return false;
      open.set(account, n + 1);
      return true;
    },
    give(account: string) {
      const n = (open.get(account) ?? 0) - 1;
      if (n > 0) open.set(account, n);
      else open.delete(account);
    },
    /** Long polls held now on this node, all accounts. */
    held: () => [...open.values()].reduce((a, b) => a + b, 0),
    /**
     * Resolves on news of any of `keys` (a job id, the queue's line), after `ms`, or when the
     * request leaves, whichever comes first.
     */
    change(keys: string[], ms: number, signal?: AbortSignal): Promise<void> {
      return new Promise((resolve) => {
        const offs: Array<() => void> = [];
        const done = () => {
          clearTimeout(timer);
          for (const off of offs) off();
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        for (const key of keys) offs.push(deps.queue.onNews(key, done));
        signal?.addEventListener('abort', done, { once: true });
      });
    },
  };
}

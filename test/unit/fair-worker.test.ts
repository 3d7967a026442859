// The media queue's own worker loop (adapters/jobs/fair-worker.ts, decision 0085): at most `share`
// running jobs per owner, the owner's others skipped (not waited for) while there is a free slot,
// and the next one taken when one of the owner's ends. The line is a list here; the fetch is
// pg-boss's (job-queue.ts; tested on both databases by test/integration/media-shares.test.ts and
// test/integration/pgboss-tables.test.ts).
import { describe, expect, it } from 'vitest';
import { createFairWorker, type FetchedJob } from '../../src/server/adapters/jobs/fair-worker.js';

function line(owners: string[]) {
  const waiting: FetchedJob[] = owners.map((owner, i) => ({
    id: `j${i}-${owner}`,
    data: { owner },
    retryCount: 0,
    retryLimit: 0,
    expireInSeconds: 60,
  }));
  const gates = new Map<string, () => void>();
  const started: string[] = [];
  const completed: string[] = [];
  const worker = createFairWorker({
    concurrency: 2,
    share: 1,
    pollingMs: 60_000,
    async fetch(skip) {
      const i = waiting.findIndex((j) => !skip.includes(String(j.data?.owner)));
      return i < 0 ? undefined : waiting.splice(i, 1)[0];
    },
    run: (job) =>
      new Promise((resolve) => {
        started.push(job.id);
        gates.set(job.id, () => resolve({ ok: true }));
      }),
    complete: async (id) => completed.push(id),
    fail: async () => undefined,
    changed: () => undefined,
    onError: (err) => {
      throw err;
    },
  });
  return { worker, started, completed, end: (id: string) => gates.get(id)?.() };
}
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

describe('fair worker', () => {
  it("skips an owner at its share and starts the next owner's job; the owner's next job when one of its own ends", async () => {
    const l = line(['a', 'a', 'a', 'b']);
    l.worker.wake();
    await until(() => l.started.length === 2);
    expect(l.started).toEqual(['j0-a', 'j3-b']);
    expect(l.worker.stats()).toEqual({ running: 2, held: { a: 1, b: 1 } });
    // b's end frees a slot, but a is still at its share: nothing starts.
    l.end('j3-b');
    await until(() => l.completed.includes('j3-b'));
    expect(l.started).toEqual(['j0-a', 'j3-b']);
    l.end('j0-a');
    await until(() => l.started.length === 3);
    expect(l.started.at(-1)).toBe('j1-a');
    l.end('j1-a');
    await until(() => l.started.length === 4);
    l.end('j2-a');
    await until(() => l.completed.length === 4);
    await l.worker.stop(1000);
  });
});

// The node's media pool is a plain concurrency limit (issue 30, decision 0023): jobs start in
// arrival order whoever owns them (Pro first and owners' turns are the job queue's, tested in
// test/integration/media-jobs.test.ts), a full line answers media.busy, and a waiter that leaves
// gives its place up.
import { describe, expect, it } from 'vitest';
import { createWorkerPool } from '../../src/server/adapters/media/worker-pool.js';

/** A job that records its start and finishes when told to. */
function gate() {
  const started: string[] = [];
  const open = new Map<string, () => void>();
  const job = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      open.set(name, () => resolve(name));
    });
  const finish = async (name: string) => {
    open.get(name)?.();
    await new Promise((r) => setImmediate(r));
  };
  return { started, job, finish };
}

describe('media pool: a plain concurrency limit', () => {
  it("starts waiting jobs in arrival order (owner and plan are the job queue's order only)", async () => {
    const pool = createWorkerPool({ concurrency: 1, maxQueue: 20 });
    const g = gate();
    const all = [pool.run(g.job('a1')), pool.run(g.job('a2')), pool.run(g.job('b1'))];
    for (const n of ['a1', 'a2', 'b1']) {
      await new Promise((r) => setImmediate(r));
      expect(g.started.at(-1)).toBe(n);
      await g.finish(n);
    }
    expect(await Promise.all(all)).toEqual(['a1', 'a2', 'b1']);
  });

  it('runs `concurrency` jobs at once and answers media.busy when the line is full', async () => {
    const pool = createWorkerPool({ concurrency: 2, maxQueue: 1 });
    const g = gate();
    const held = [pool.run(g.job('r1')), pool.run(g.job('r2')), pool.run(g.job('w1'))];
    await new Promise((r) => setImmediate(r));
    expect(g.started).toEqual(['r1', 'r2']);
    expect(pool.stats()).toMatchObject({ running: 2, queued: 1 });
    await expect(pool.run(g.job('w2'))).rejects.toMatchObject({ code: 'media.busy' });
    await g.finish('r1');
    expect(g.started).toEqual(['r1', 'r2', 'w1']);
    await g.finish('r2');
    await g.finish('w1');
    await Promise.all(held);
  });

  it('drops a waiter that leaves, and the next one takes its place', async () => {
    const pool = createWorkerPool({ concurrency: 1, maxQueue: 5 });
    const g = gate();
    const ac = new AbortController();
    const first = pool.run(g.job('first'));
    const leaving = pool.run(g.job('leaving'), ac.signal);
    const last = pool.run(g.job('last'));
    ac.abort();
    await expect(leaving).rejects.toMatchObject({ code: 'request.aborted' });
    await new Promise((r) => setImmediate(r));
    await g.finish('first');
    expect(g.started).toEqual(['first', 'last']);
    await g.finish('last');
    await Promise.all([first, last]);
  });
});

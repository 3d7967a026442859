// The media pool's order (issue 21, priority processing): Pro's jobs before free users', one
// owner's pile of jobs interleaved with everyone else's, and no owner filling the waiting line.
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
    open.get(name)!();
    await new Promise((r) => setImmediate(r));
  };
  return { started, job, finish };
}

describe('media pool order', () => {
  it("runs a second owner's job before the rest of a first owner's pile", async () => {
    const pool = createWorkerPool({ concurrency: 1, maxQueue: 20 });
    const g = gate();
    const all = ['a1', 'a2', 'a3', 'a4'].map((n) => pool.run(g.job(n), undefined, { owner: 'a', priority: 2 }));
    all.push(pool.run(g.job('b1'), undefined, { owner: 'b', priority: 2 }));
    for (const n of ['a1', 'b1', 'a2', 'a3', 'a4']) {
      await new Promise((r) => setImmediate(r));
      expect(g.started.at(-1)).toBe(n);
      await g.finish(n);
    }
    expect(await Promise.all(all)).toHaveLength(5);
  });

  it("runs Pro's waiting jobs before free users' jobs that came earlier", async () => {
    const pool = createWorkerPool({ concurrency: 1, maxQueue: 20 });
    const g = gate();
    const jobs = [
      pool.run(g.job('running'), undefined, { owner: 'x', priority: 1 }),
      pool.run(g.job('free'), undefined, { owner: 'f', priority: 1 }),
      pool.run(g.job('pro'), undefined, { owner: 'p', priority: 2 }),
    ];
    await new Promise((r) => setImmediate(r));
    await g.finish('running');
    expect(g.started).toEqual(['running', 'pro']);
    await g.finish('pro');
    expect(g.started).toEqual(['running', 'pro', 'free']);
    await g.finish('free');
    await Promise.all(jobs);
  });

  it('refuses an owner who already fills half the waiting line, and still takes others', async () => {
    const pool = createWorkerPool({ concurrency: 1, maxQueue: 4 });
    const g = gate();
    const held = [
      pool.run(g.job('a0'), undefined, { owner: 'a' }),
      pool.run(g.job('a1'), undefined, { owner: 'a' }),
      pool.run(g.job('a2'), undefined, { owner: 'a' }),
    ];
    await expect(pool.run(g.job('a3'), undefined, { owner: 'a' })).rejects.toMatchObject({ code: 'media.busy' });
    const b = pool.run(g.job('b1'), undefined, { owner: 'b' });
    expect(pool.stats()).toMatchObject({ running: 1, queued: 3 });
    for (const n of ['a0', 'b1', 'a1', 'a2']) {
      await new Promise((r) => setImmediate(r));
      await g.finish(n);
    }
    await Promise.all([...held, b]);
  });
});

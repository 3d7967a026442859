// Long polls of a media job's status (GET /api/media-jobs/:id?wait, issue 42): one account holds at
// most LONG_POLLS_PER_ACCOUNT of them at once (beyond, the status comes back at once), and a held
// poll reads the job again on news of it, not every 250 ms: once when the job ends, on this node and,
// on PostgreSQL, when another node ran it (LISTEN/NOTIFY).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startNodes } from '../helpers/nodes.js';
import { JOB_CATALOGUE } from '../../src/server/jobs/catalogue.js';
import type { MediaJobsOf } from '../../src/server/services/media-jobs.service.js';
import { SAFETY_RECHECK_MS } from '../../src/server/services/media-jobs.long-poll.js';

const kinds = { held: JOB_CATALOGUE.audio };
const testJobs = (t: TestApp) => t.ctx.services.mediaJobs as unknown as MediaJobsOf<Record<string, { name?: string }>>;
/** Gated jobs of kind `held` on the node that runs them: `open(name)` lets one end. */
function heldJobs(runner: TestApp) {
  const gates = new Map<string, () => void>();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-held-'));
  testJobs(runner).register('held', async (data, job) => {
    const name = data.name ?? '';
    await new Promise<void>((resolve) => gates.set(name, resolve));
    const file = path.join(dir, `${name}.txt`);
    fs.writeFileSync(file, name);
    return runner.ctx.services.mediaResults.save({
      key: job.key,
      kind: 'held',
      videoId: null,
      file,
      ext: 'txt',
      contentType: 'text/plain',
      size: name.length,
      meta: {},
    });
  });
  return { running: (name: string) => gates.has(name), open: (name: string) => gates.get(name)?.() };
}
/** Sends a `held` job for `owner` from `t` (it does not wait for it) and returns its id once it runs. */
async function startHeld(t: TestApp, name: string, owner: string, running: () => boolean) {
  const pending = await testJobs(t).run(
    { kind: 'held', key: `held:${Date.now()}:${name}`, data: { name }, owner: { owner, plan: 2 } },
    undefined,
    { respondAsync: true },
  );
  if (!('state' in pending)) throw new Error('the job ended before its gate opened');
  await expect.poll(running, { timeout: 10_000 }).toBe(true);
  return pending.id;
}
/** Counts the job statuses `t` reads from the queue (every read of a long poll is one). */
function countReads(t: TestApp) {
  const queue = t.ctx.jobQueue;
  const status = queue.status;
  const counter = { reads: 0 };
  queue.status = (...args: Parameters<typeof status>) => {
    counter.reads++;
    return status(...args);
  };
  return counter;
}
const poll = (c: { get(p: string): Promise<Response> }, id: string, wait: number) =>
  c.get(`/api/media-jobs/${id}?wait=${wait}&seen=running:`);

describe.each(DB_KINDS)('media job long polls (%s)', (db) => {
  let t: TestApp;
  let held: ReturnType<typeof heldJobs>;
  let counter: { reads: number };
  beforeAll(async () => {
    t = await createTestApp({
      db,
      env: { LONG_POLLS_PER_ACCOUNT: '3' },
      configure: (ctx) => ctx.services.mediaJobs.declare(kinds),
    });
    held = heldJobs(t);
    counter = countReads(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it("holds at most LONG_POLLS_PER_ACCOUNT of one account's polls and answers its next one at once", async () => {
    const pro = await t.signUp({ pro: true });
    const id = await startHeld(t, 'capped', pro.userId, () => held.running('capped'));
    const before = counter.reads;
    const ended: boolean[] = [];
    const open = [0, 1, 2].map((i) =>
      poll(pro, id, 20_000).then(async (r) => {
        ended[i] = true;
        return r.json();
      }),
    );
    // Each poll read the job once and is held now.
    await expect.poll(() => counter.reads - before, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    const extra = await poll(pro, id, 20_000);
    expect(extra.status).toBe(200);
    expect(await extra.json()).toMatchObject({ id, state: 'running' });
    expect(ended).toEqual([]);

    held.open('capped');
    for (const answer of await Promise.all(open)) expect(answer).toMatchObject({ id, state: 'done' });
  });

  it('reads a held job again only on news of it: its end wakes the poll at once', async () => {
    const pro = await t.signUp({ pro: true });
    const id = await startHeld(t, 'quiet', pro.userId, () => held.running('quiet'));
    // Held 2 s with no news: read when it came and when its time ran out, not every 250 ms.
    let before = counter.reads;
    const unchanged = await poll(pro, id, 2000);
    expect(await unchanged.json()).toMatchObject({ id, state: 'running' });
    expect(counter.reads - before).toBeLessThanOrEqual(2);

    before = counter.reads;
    const sent = Date.now();
    const asked = poll(pro, id, 25_000);
    await expect.poll(() => counter.reads - before, { timeout: 10_000 }).toBe(1);
    held.open('quiet');
    const answer = await (await asked).json();
    expect(answer).toMatchObject({ id, state: 'done', result: { url: expect.stringMatching(/^\/api\/media\//) } });
    // Woken by the news: before the safety re-read would have come (and long before the wait ran out).
    expect(Date.now() - sent).toBeLessThan(SAFETY_RECHECK_MS);
    expect(counter.reads - before).toBeLessThanOrEqual(3);
  });
});

describe('media job long polls across nodes on one PostgreSQL', () => {
  let cluster: Awaited<ReturnType<typeof startNodes>>;
  let held: ReturnType<typeof heldJobs>;
  beforeAll(async () => {
    cluster = await startNodes(['web', 'worker'], {}, (ctx) => ctx.services.mediaJobs.declare(kinds));
    held = heldJobs(cluster.nodes[1]);
  });
  afterAll(async () => {
    await cluster?.close();
  });

  it("wakes a poll on the web node when the worker's job ends, without reading it meanwhile", async () => {
    const [web] = cluster.nodes;
    const counter = countReads(web);
    const pro = await web.signUp({ pro: true });
    const id = await startHeld(web, 'remote', pro.userId, () => held.running('remote'));
    let before = counter.reads;
    const unchanged = await poll(pro, id, 2000);
    expect(await unchanged.json()).toMatchObject({ id, state: 'running' });
    expect(counter.reads - before).toBeLessThanOrEqual(2);

    before = counter.reads;
    const sent = Date.now();
    const asked = poll(pro, id, 25_000);
    await expect.poll(() => counter.reads - before, { timeout: 10_000 }).toBe(1);
    held.open('remote');
    expect(await (await asked).json()).toMatchObject({ id, state: 'done' });
    expect(Date.now() - sent).toBeLessThan(SAFETY_RECHECK_MS);
    expect(counter.reads - before).toBeLessThanOrEqual(3);
  });
});

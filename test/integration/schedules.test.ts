// Scheduled work on the job queue (issue 21): with three nodes on one PostgreSQL database a task
// runs once per interval, not once per node; a node that restarts within the interval does not run
// it again; the first run on a fresh install comes at start. The embedded PGlite runs it too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../../src/server/db/client.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createPostgresDatabase } from '../helpers/test-db.js';

type Turn = { node: string; name: string; ran: boolean };

/** A node whose schedules include `probe` (every 10 minutes), reporting every turn it takes. */
async function node(
  name: string,
  database: Database | undefined,
  turns: Turn[],
  runs: string[],
  env: Record<string, string> = {},
) {
  return createTestApp({
    database,
    env,
    configure: (ctx) => {
      ctx.schedules.add({ name: 'probe', intervalMs: 10 * 60_000, run: async () => void runs.push(name) });
      ctx.schedules.watch((task, ran) => turns.push({ node: name, name: task, ran }));
    },
  });
}
const probeTurns = (turns: Turn[], n: string) => turns.filter((t) => t.name === 'probe' && t.node === n);

describe('schedules across three nodes on one PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createPostgresDatabase>>;
  const nodes: TestApp[] = [];
  const turns: Turn[] = [];
  const runs: string[] = [];
  beforeAll(async () => {
    db = await createPostgresDatabase();
  });
  afterAll(async () => {
    for (const n of nodes) await n.close().catch(() => undefined);
    await db?.drop();
  });

  it('runs a task once for all nodes at start, and not again when a node restarts within the interval', async () => {
    for (const name of ['a', 'b', 'c']) nodes.push(await node(name, await openPostgres(db.url), turns, runs));
    // Every node's workers take turns from the shared queue; one start turn per task is queued.
    await expect.poll(() => runs.length, { timeout: 20_000 }).toBe(1);
    const row = await nodes[0].ctx.repos.scheduleRuns.find('probe');
    expect(row).toMatchObject({ runs: 1, error: null });
    expect(row!.finishedAt).not.toBeNull();
    // The other built-in tasks also ran exactly once, on whichever node took them.
    for (const task of ['media-results-cleanup', 'billing-reconciliation', 'sessions-prune']) {
      await expect
        .poll(async () => (await nodes[0].ctx.repos.scheduleRuns.find(task))?.runs, { timeout: 20_000 })
        .toBe(1);
    }

    // Node a restarts: its start turn finds the run of this interval already done.
    await nodes[0].close();
    nodes[0] = await node('a2', await openPostgres(db.url), turns, runs);
    await expect.poll(() => probeTurns(turns, 'a2').length, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(probeTurns(turns, 'a2').every((t) => !t.ran)).toBe(true);
    expect(runs).toHaveLength(1);

    // Any node asking again within the interval is refused; the row still says one run.
    await nodes[1].ctx.schedules.runNow('probe');
    expect(probeTurns(turns, 'b').at(-1)!.ran).toBe(false);
    expect((await nodes[1].ctx.repos.scheduleRuns.find('probe'))!.runs).toBe(1);
  });
});

describe('PROCESS_ROLE=web and worker on one PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createPostgresDatabase>>;
  const nodes: TestApp[] = [];
  afterAll(async () => {
    for (const n of nodes) await n.close().catch(() => undefined);
    await db?.drop();
  });

  it('leaves every task to the worker: the web node only enqueues', async () => {
    db = await createPostgresDatabase();
    const turns: Turn[] = [];
    const runs: string[] = [];
    nodes.push(await node('web', await openPostgres(db.url), turns, runs, { PROCESS_ROLE: 'web' }));
    nodes.push(await node('worker', await openPostgres(db.url), turns, runs, { PROCESS_ROLE: 'worker' }));
    await expect.poll(() => runs, { timeout: 20_000 }).toEqual(['worker']);
    const tasks = nodes[1].ctx.schedules.tasks.map((t) => t.name).sort(); // probe and every built-in task
    await expect.poll(() => [...new Set(turns.map((t) => t.name))].sort(), { timeout: 20_000 }).toEqual(tasks);
    expect(turns.every((t) => t.node === 'worker')).toBe(true);
  });
});

describe('schedules on the embedded PGlite', () => {
  let t: TestApp;
  const turns: Turn[] = [];
  const runs: string[] = [];
  beforeAll(async () => {
    t = await node('solo', undefined, turns, runs);
  });
  afterAll(async () => t?.close());

  it('runs each task at start, once', async () => {
    await expect.poll(() => runs, { timeout: 20_000 }).toEqual(['solo']);
    await t.ctx.schedules.runNow('probe');
    expect(runs).toEqual(['solo']);
    expect((await t.ctx.repos.scheduleRuns.find('probe'))!.runs).toBe(1);
  });
});

// pg-boss has no public call for a few questions the queue asks (adapters/jobs/pgboss-tables.ts:
// the open job of a key, a job's place in line, a requester joining, "cancel unless kept"; the
// reasons are in docs/decisions/0096-pg-boss-12-and-its-tables.md). This test pins what those
// statements rely on (columns, state order, pg-boss's fetch order) and what the media share relies
// on (its fetch leaving out an owner's group), so a pg-boss upgrade that changes them fails here
// first, on PGlite and PostgreSQL alike.
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createJobQueue, type JobQueue } from '../../src/server/adapters/jobs/job-queue.js';
import { PGBOSS_JOB_COLUMNS, PGBOSS_STATES } from '../../src/server/adapters/jobs/pgboss-tables.js';
import type { Database } from '../../src/server/db/client.js';
import { DB_KINDS, openTestDatabase } from '../helpers/test-db.js';

const rowsOf = (r: unknown) =>
  (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as Array<Record<string, unknown>>;

describe.each(DB_KINDS)('pg-boss tables read directly (%s)', (kind) => {
  let database: Database;
  let queue: JobQueue;
  const q = { name: 'shape.test', policy: 'stately' as const };
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    queue = createJobQueue({ connection: database.jobs, logger: pino({ level: 'silent' }) });
    await queue.start();
    await queue.define(q);
  });
  afterAll(async () => {
    await queue?.stop();
    await database?.close();
  });

  it('has the columns and the order of states the statements use', async () => {
    const columns = rowsOf(
      await database.db.execute(
        sql`SELECT column_name FROM information_schema.columns WHERE table_schema = 'pgboss' AND table_name = 'job'`,
      ),
    ).map((r) => r.column_name);
    expect(columns).toEqual(expect.arrayContaining([...PGBOSS_JOB_COLUMNS]));
    const [states] = rowsOf(
      await database.db.execute(sql`SELECT array_to_string(enum_range(NULL::pgboss.job_state), ',') AS s`),
    );
    expect(String(states.s).split(',')).toEqual([...PGBOSS_STATES]);
  });

  it('finds the open job of a key, its place in line, its requesters, and cancels only what is not kept', async () => {
    const first = String(await queue.send(q.name, { askers: ['u1'] }, { singletonKey: 'k1', priority: 5 }));
    const second = String(await queue.send(q.name, {}, { singletonKey: 'k2', priority: 1 }));
    expect([first, second]).toEqual([
      expect.stringMatching(/^[0-9a-f-]{36}$/),
      expect.stringMatching(/^[0-9a-f-]{36}$/),
    ]);
    expect(await queue.openJob(q.name, 'k1')).toBe(first);
    expect(await queue.openJob(q.name, 'nothing')).toBeUndefined();
    expect(await queue.openCounts(q.name, 'nobody')).toEqual({ open: 2, owners: 0 });
    expect((await queue.status(q.name, first, { position: true }))?.position).toBe(1);
    expect((await queue.status(q.name, second, { position: true }))?.position).toBe(2);

    await queue.join(q.name, first, { asker: 'u2' });
    await queue.join(q.name, first, { asker: 'u2', keep: true });
    expect((await queue.status(q.name, first))?.data).toMatchObject({ askers: ['u1', 'u2'], keep: true });

    expect(await queue.cancelUnlessKept(q.name, first)).toBe(false);
    expect(await queue.cancelUnlessKept(q.name, second)).toBe(true);
    expect((await queue.status(q.name, second))?.state).toBe('cancelled');
    expect((await queue.status(q.name, first))?.state).toBe('created');
  });

  it('takes jobs in the order of their place in line, and leaves out an owner at its share', async () => {
    const fq = { name: 'shape.fair', concurrency: 2, ownerShare: 1 };
    await queue.define(fq);
    const a0 = String(await queue.send(fq.name, { owner: 'a' }));
    const b0 = String(await queue.send(fq.name, { owner: 'b' }));
    const a5 = String(await queue.send(fq.name, { owner: 'a' }, { priority: 5 }));
    expect((await queue.status(fq.name, a5, { position: true }))?.position).toBe(1);
    const later = await Promise.all(
      [a0, b0].map(async (id) => (await queue.status(fq.name, id, { position: true }))?.position),
    );
    expect(later.sort()).toEqual([2, 3]);

    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    await queue.work(fq, async ({ id }) => {
      started.push(id);
      if (started.length === 2) release();
      await gate;
      return { ok: true };
    });
    // a5 first (priority); a's other job waits while a5 runs, though a slot is free: b0 takes it.
    await vi.waitFor(() => expect(started).toHaveLength(3), { timeout: 10_000, interval: 20 });
    expect(started).toEqual([a5, b0, a0]);
    await vi.waitFor(async () => expect((await queue.status(fq.name, a0))?.state).toBe('completed'), {
      timeout: 10_000,
      interval: 20,
    });
  });
});

// A database that ran pg-boss 10 (schema version 24, which pg-boss 12 cannot migrate): at start its
// schema is set aside as pgboss_v10, pg-boss 12 makes its own, and a queue declared afterwards gets
// the jobs still open there, with their ids and owners; ended ones stay behind
// (adapters/jobs/pgboss-10-carry-over.ts, decision 0096). The old tables below have the columns of
// pg-boss 10.4.2's `version` and `job` tables (as its createTableVersion and createTableJob make them).
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue, type JobQueue } from '../../src/server/adapters/jobs/job-queue.js';
import type { Database } from '../../src/server/db/client.js';
import { DB_KINDS, openTestDatabase } from '../helpers/test-db.js';

const rowsOf = (r: unknown) =>
  (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as Array<Record<string, unknown>>;
const OPEN = '00000000-0000-4000-8000-000000000001';
const ENDED = '00000000-0000-4000-8000-000000000002';
const OTHER = '00000000-0000-4000-8000-000000000003';

describe.each(DB_KINDS)("pg-boss 10's schema at start (%s)", (kind) => {
  let database: Database;
  let queues: JobQueue[] = [];
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await database.db.execute(sql.raw('DROP SCHEMA IF EXISTS pgboss CASCADE'));
    for (const text of [
      'CREATE SCHEMA pgboss',
      'CREATE TABLE pgboss.version (version int primary key, maintained_on timestamptz, cron_on timestamptz, monitored_on timestamptz)',
      'INSERT INTO pgboss.version (version) VALUES (24)',
      "CREATE TYPE pgboss.job_state AS ENUM ('created', 'retry', 'active', 'completed', 'cancelled', 'failed')",
      `CREATE TABLE pgboss.job (id uuid not null default gen_random_uuid(), name text not null,
        priority integer not null default(0), data jsonb, state pgboss.job_state not null default('created'),
        retry_limit integer not null default(2), retry_count integer not null default(0),
        retry_delay integer not null default(0), retry_backoff boolean not null default false,
        start_after timestamptz not null default now(), started_on timestamptz, singleton_key text,
        singleton_on timestamp, expire_in interval not null default interval '15 minutes',
        created_on timestamptz not null default now(), completed_on timestamptz,
        keep_until timestamptz not null default now() + interval '14 days', output jsonb, dead_letter text,
        policy text) PARTITION BY LIST (name)`,
      'CREATE TABLE pgboss.job_default PARTITION OF pgboss.job DEFAULT',
      `INSERT INTO pgboss.job (id, name, priority, data, state, retry_limit, singleton_key, expire_in) VALUES
        ('${OPEN}', 'carry.test', 3, '{"owner":"u1"}', 'active', 4, 'k1', interval '90 seconds'),
        ('${ENDED}', 'carry.test', 0, '{}', 'completed', 0, null, interval '15 minutes'),
        ('${OTHER}', 'carry.other', 0, '{}', 'created', 0, null, interval '15 minutes')`,
    ]) {
      await database.db.execute(sql.raw(text));
    }
  });
  afterAll(async () => {
    for (const q of queues) await q.stop();
    await database?.close();
  });

  it('sets the old schema aside once, and gives a declared queue its open jobs again', async () => {
    // On PostgreSQL two nodes starting together: the schema is set aside once, the job carried over
    // once. PGlite is one process's database (one node).
    queues = (kind === 'postgres' ? [0, 1] : [0]).map(() =>
      createJobQueue({ connection: database.jobs, logger: pino({ level: 'silent' }) }),
    );
    await Promise.all(queues.map((q) => q.start()));
    await Promise.all(queues.map((q) => q.define({ name: 'carry.test', retryLimit: 1 })));

    const open = await queues[0].status('carry.test', OPEN);
    expect(open).toMatchObject({ state: 'created', data: { owner: 'u1' } });
    expect(await queues[0].openJob('carry.test', 'k1')).toBe(OPEN);
    expect(await queues[0].status('carry.test', ENDED)).toBeNull();
    const left = rowsOf(await database.db.execute(sql.raw('SELECT id, name FROM pgboss_v10.job ORDER BY id')));
    expect(left.map((r) => r.id)).toEqual([ENDED, OTHER]);
    const [version] = rowsOf(await database.db.execute(sql.raw('SELECT max(version) AS v FROM pgboss.version')));
    expect(Number(version.v)).toBeGreaterThanOrEqual(25);
  });
});

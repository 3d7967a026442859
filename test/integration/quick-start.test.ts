// A quick start (issue 38, decision 0075): the server answers once the database does; the job queue
// starts just after, and a job sent before it is up waits for it and runs, never lost. The queue's
// start is held here on purpose (its SQL waits on a latch), so "before" is a fact, not a race.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { migrationsFolder, openPglite, type JobsConnection } from '../../src/server/db/client.js';
import { JOB_CATALOGUE } from '../../src/server/jobs/catalogue.js';
import type { MediaJobsOf } from '../../src/server/services/media-jobs.service.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { openTestDatabase, pgliteTemplate } from '../helpers/test-db.js';

type RawSql = Extract<JobsConnection, { executeSql: unknown }>;

describe('start: health before the job queue, jobs sent meanwhile still run (pglite)', () => {
  let t: TestApp | undefined;
  let release = () => {};
  afterAll(async () => {
    release(); // a test that failed early must not leave the queue's start (and so the close) waiting
    await t?.close();
  });

  it('answers /api/health while the queue is still starting, then runs the job sent meanwhile', async () => {
    const database = await openTestDatabase('pglite');
    const raw = database.jobs as RawSql;
    const latch = new Promise<void>((r) => (release = r));
    let queueAsked = 0;
    let queueAnswered = 0;
    const held: RawSql = {
      async executeSql(text, values) {
        queueAsked++;
        await latch;
        const rows = await raw.executeSql(text, values);
        queueAnswered++;
        return rows;
      },
    };
    t = await createTestApp({
      database: { ...database, jobs: held },
      beforeQueue: true,
      configure: (ctx) => ctx.services.mediaJobs.declare({ probe: JOB_CATALOGUE.audio }),
    });
    const app = t;
    // Listening, and the queue's start has asked the database and not heard back.
    await expect.poll(() => queueAsked, { timeout: 10_000 }).toBeGreaterThan(0);
    const health = await app.client().get('/api/health');
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    expect(queueAnswered).toBe(0);

    const ran: string[] = [];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-quick-start-'));
    const jobs = app.ctx.services.mediaJobs as unknown as MediaJobsOf<Record<string, { name?: string }>>;
    jobs.register('probe', async (data, job) => {
      ran.push(data.name ?? '');
      const file = path.join(dir, 'early.txt');
      fs.writeFileSync(file, 'early');
      return app.ctx.services.mediaResults.save({
        key: job.key,
        kind: 'probe',
        videoId: null,
        file,
        ext: 'txt',
        contentType: 'text/plain',
        size: 5,
        meta: {},
      });
    });
    const early = jobs.run({
      kind: 'probe',
      key: `probe:${Date.now()}:early`,
      data: { name: 'early' },
      owner: { owner: 'o', plan: 1 },
    });
    let settled = false;
    void early.then(
      () => (settled = true),
      () => (settled = true),
    );
    // Sent before the queue is up: it waits (nothing has run, nothing failed).
    await new Promise((r) => setImmediate(r));
    expect([settled, ran]).toEqual([false, []]);

    release();
    await app.ctx.background.started();
    const result = await early;
    expect(ran).toEqual(['early']);
    expect(result).toBeTruthy();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 90_000);
});

describe('start: migrations are looked at with one query, and still applied when behind (pglite)', () => {
  it('applies the migration a database left by the previous release lacks', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-behind-'));
    const cluster = path.join(dir, 'pglite');
    const dump = new Blob([fs.readFileSync(path.join(await pgliteTemplate(), 'dump.tar'))]);
    // The previous release: the last migration (0011 drops downloads.thumbnail) not applied yet.
    const old = new PGlite(cluster, { loadDataDir: dump });
    await old.exec(`ALTER TABLE downloads ADD COLUMN thumbnail text;
      DELETE FROM drizzle.__drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM drizzle.__drizzle_migrations)`);
    await old.close();

    const database = await openPglite(cluster);
    try {
      const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8'));
      const raw = database.jobs as RawSql;
      const applied = await raw.executeSql('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations', []);
      expect(applied.rows).toEqual([{ n: journal.entries.length }]);
      const column = await raw.executeSql(
        "SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'downloads' AND column_name = 'thumbnail'",
        [],
      );
      expect(column.rows).toEqual([{ n: 0 }]);
    } finally {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('stop: a job-queue statement asked just before the close still runs (pglite)', () => {
  it('closes PGlite only after the statements pg-boss had already sent (its complete() is not awaited)', async () => {
    const database = await openTestDatabase('pglite');
    const raw = database.jobs as RawSql;
    // pg-boss sends a finished job's complete() without awaiting it, then stops and the database
    // closes: the statement, already asked, must not find PGlite closed (an unhandled rejection).
    const sent = raw.executeSql('SELECT 1 AS one', []);
    await database.close();
    await expect(sent).resolves.toEqual({ rows: [{ one: 1 }] });
  });
});

// The job queue (issue 21): enqueue-to-start latency (p50/p99) and what a job costs the database,
// on PostgreSQL and PGlite; then batch items per minute with 1 and 2 worker processes on one
// PostgreSQL database (web node enqueues, workers fetch from the fake CDN and store the files), and
// audio extractions (media jobs) per minute the same way, all media kept in the S3 stand-in.
// Run: `node scripts/build.mjs && npx tsx bench/jobs.bench.ts` (JOBS=200, ITEMS=40, AUDIO=24,
// WORKER_MEDIA_CONCURRENCY=1). BASELINE=<dir>: a built checkout of other code (e.g. main, with this
// tree's node_modules linked in) measured in the same run, its figures first, then this tree's
// and the ratios (issue 30: no worse than before); BENCH_ORDER=this-first measures this tree first.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { createJobQueue as createThisJobQueue } from '../src/server/adapters/jobs/job-queue.js';
import { openPglite, openPostgres, type Database } from '../src/server/db/client.js';
import { createPostgresDatabase } from '../test/helpers/test-db.js';
import { startServer } from '../test/helpers/e2e.js';
import { startFakeTikTok } from '../test/fakes/tiktok/fake-tiktok.js';
import { startFakeS3 } from '../test/fakes/fake-s3.js';
import { toneMp4 } from '../test/fakes/media-samples.js';

const JOBS = Number(process.env.JOBS ?? 200);
const ITEMS = Number(process.env.ITEMS ?? 40);
const AUDIO = Number(process.env.AUDIO ?? 24);
/** Media jobs at once per worker process (1: the second process brings the second core). */
const PER_WORKER = process.env.WORKER_MEDIA_CONCURRENCY ?? '1';
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const logger = pino({ level: 'silent' });
const HERE = path.resolve(import.meta.dirname, '..');
const BASELINE = process.env.BASELINE ? path.resolve(process.env.BASELINE) : undefined;
type CreateJobQueue = typeof createThisJobQueue;

/** Sends JOBS jobs one after another into an idle queue with 2 workers; returns latencies and SQL calls per job. */
async function latency(createJobQueue: CreateJobQueue, database: Database, sqlCalls: () => Promise<number>) {
  const queue = createJobQueue({ connection: database.jobs, logger, pollingIntervalSeconds: 0.5 });
  await queue.start();
  const q = { name: 'bench.latency', concurrency: 2 };
  await queue.define(q);
  const sent = new Map<string, number>();
  const waits: number[] = [];
  let done!: () => void;
  const all = new Promise<void>((r) => (done = r));
  await queue.work(q, async ({ data }) => {
    waits.push(performance.now() - sent.get(String(data.n))!);
    if (waits.length === JOBS) done();
  });
  const before = await sqlCalls();
  for (let n = 0; n < JOBS; n++) {
    sent.set(String(n), performance.now());
    await queue.send(q.name, { n });
    await new Promise((r) => setTimeout(r, 5)); // a steady trickle, as requests arrive
  }
  await all;
  const calls = (await sqlCalls()) - before;
  await queue.stop();
  return { p50: pct(waits, 50), p99: pct(waits, 99), perJob: calls / JOBS };
}

async function workerProcess(env: Record<string, string>, root: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: root,
    env: { ...process.env, WHISPER_AUTO_FETCH: 'off', ...env, PROCESS_ROLE: 'worker', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('worker is ready')) resolve();
    });
    child.on('exit', () => reject(new Error(`worker exited: ${out}`)));
  });
  return child;
}

async function throughput(workers: number, root: string) {
  const db = await createPostgresDatabase();
  const tt = await startFakeTikTok();
  const s3 = await startFakeS3({ bucket: 'bench-media', accessKeyId: 'AKIDBENCH' });
  // One media store for every node: a worker's result is served by the web node.
  const env = {
    DATABASE_URL: db.url,
    UPSTREAM_HOST_MAP: tt.hostMapJson,
    MEDIA_CONCURRENCY: PER_WORKER,
    S3_ENDPOINT: s3.url,
    S3_BUCKET: 'bench-media',
    S3_ACCESS_KEY_ID: 'AKIDBENCH',
    S3_SECRET_ACCESS_KEY: 'bench-secret',
  };
  const web = await startServer(
    {
      ...env,
      PROCESS_ROLE: 'web',
      VIDEO_INFO_PER_MINUTE: '100000',
      MEDIA_QUEUE_LIMIT: '1000',
    },
    { root },
  );
  const children: ChildProcess[] = [];
  try {
    for (let i = 0; i < workers; i++)
      children.push(
        await workerProcess({ ...env, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'bench-worker-')) }, root),
      );
    const email = `jobs${Date.now()}@example.com`;
    const reg = await fetch(`${web.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: web.url },
      body: JSON.stringify({ email, password: 'correct horse battery' }),
    });
    const cookie = reg.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    await web.cli(['user:grant-pro', email]);
    const headers = { 'content-type': 'application/json', origin: web.url, cookie };
    const urls = Array.from({ length: ITEMS }, () => tt.addVideo({ media: { size: 5_000_000 } }).url);
    const t0 = performance.now();
    const { id } = (await (
      await fetch(`${web.url}/api/batch`, { method: 'POST', headers, body: JSON.stringify({ urls }) })
    ).json()) as { id: string };
    for (;;) {
      const view = (await (await fetch(`${web.url}/api/batch/${id}`, { headers })).json()) as { status: string };
      if (view.status !== 'queued' && view.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const items = (ITEMS / (performance.now() - t0)) * 60_000;
    // Audio extractions: AUDIO requests at once on the web node, each a media job on a worker.
    const sound = toneMp4(20);
    const links = Array.from({ length: AUDIO }, () => tt.addVideo({ media: { file: sound }, duration: 20 }).url);
    const t1 = performance.now();
    const answers = await Promise.all(
      links.map((url) =>
        fetch(`${web.url}/api/audio/extract`, { method: 'POST', headers, body: JSON.stringify({ url }) }),
      ),
    );
    const audio = (AUDIO / (performance.now() - t1)) * 60_000;
    const failed = answers.filter((r) => r.status !== 200).map((r) => r.status);
    if (failed.length) throw new Error(`audio extractions failed: ${failed.join(', ')}`);
    return { items, audio };
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await web.stop();
    await tt.close();
    await s3.close();
    await db.drop();
  }
}

/** Every figure of one tree: queue latency on both databases, then batch and audio throughput. */
async function measure(root: string, createJobQueue: CreateJobQueue) {
  const pgDb = await createPostgresDatabase();
  const postgres = await openPostgres(pgDb.url);
  const stats = new pg.Client({ connectionString: pgDb.url });
  await stats.connect();
  const xacts = async () =>
    Number(
      (
        await stats.query(
          'select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()',
        )
      ).rows[0].n,
    );
  const onPostgres = await latency(createJobQueue, postgres, xacts);
  await stats.end();
  await postgres.close();
  await pgDb.drop();

  const lite = await openPglite('memory://');
  let calls = 0;
  const counted: Database = {
    ...lite,
    jobs: {
      executeSql: (text: string, values?: unknown[]) => {
        calls++;
        return (lite.jobs as { executeSql: (t: string, v?: unknown[]) => Promise<{ rows: unknown[] }> }).executeSql(
          text,
          values,
        );
      },
    },
  };
  const onPglite = await latency(createJobQueue, counted, async () => calls);
  await lite.close();

  console.log(`job queue (each tree's own pg-boss), ${JOBS} jobs sent 5 ms apart, 2 workers polling every 0.5 s:`);
  console.log(
    `  PostgreSQL: enqueue to start p50 ${onPostgres.p50.toFixed(0)} ms, p99 ${onPostgres.p99.toFixed(0)} ms; ` +
      `${onPostgres.perJob.toFixed(1)} transactions per job (whole database, polling included)`,
  );
  console.log(
    `  PGlite:     enqueue to start p50 ${onPglite.p50.toFixed(0)} ms, p99 ${onPglite.p99.toFixed(0)} ms; ` +
      `${onPglite.perJob.toFixed(1)} SQL calls per job (polling included)`,
  );
  const one = await throughput(1, root);
  const two = await throughput(2, root);
  console.log(`batch of ${ITEMS} items (5 MB each) on PostgreSQL, MEDIA_CONCURRENCY=${PER_WORKER} per worker:`);
  console.log(
    `  1 worker process: ${one.items.toFixed(0)} items/min; ` +
      `2 worker processes: ${two.items.toFixed(0)} items/min (${(two.items / one.items).toFixed(2)}x)`,
  );
  console.log(
    `${AUDIO} audio extractions at once (20 s MP3 each) through the web node, MEDIA_CONCURRENCY=${PER_WORKER} per worker:`,
  );
  console.log(
    `  1 worker process: ${one.audio.toFixed(0)} jobs/min; ` +
      `2 worker processes: ${two.audio.toFixed(0)} jobs/min (${(two.audio / one.audio).toFixed(2)}x)`,
  );
  return { onPostgres, onPglite, one, two };
}

if (BASELINE) {
  const base = (await import(path.join(BASELINE, 'src/server/adapters/jobs/job-queue.ts'))) as {
    createJobQueue: CreateJobQueue;
  };
  const runBaseline = async () => {
    console.log(`# baseline: ${BASELINE}`);
    return measure(BASELINE, base.createJobQueue);
  };
  const runThis = async () => {
    console.log(`# this tree: ${HERE}`);
    return measure(HERE, createThisJobQueue);
  };
  // Alternate which goes first between runs: on a shared machine the load drifts within a run.
  const thisFirst = process.env.BENCH_ORDER === 'this-first';
  const first = await (thisFirst ? runThis() : runBaseline());
  const second = await (thisFirst ? runBaseline() : runThis());
  const [before, after] = thisFirst ? [second, first] : [first, second];
  const r = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  console.log('this tree / baseline (p99: below 1 is better; throughput: above 1 is better):');
  const [pgP99, litP99] = [r(after.onPostgres.p99, before.onPostgres.p99), r(after.onPglite.p99, before.onPglite.p99)];
  console.log(`  p99 PostgreSQL ${pgP99}, PGlite ${litP99}`);
  const [items1, items2] = [r(after.one.items, before.one.items), r(after.two.items, before.two.items)];
  console.log(`  batch items/min 1 worker ${items1}, 2 workers ${items2}`);
  const [audio1, audio2] = [r(after.one.audio, before.one.audio), r(after.two.audio, before.two.audio)];
  console.log(`  audio jobs/min 1 worker ${audio1}, 2 workers ${audio2}`);
} else {
  await measure(HERE, createThisJobQueue);
}

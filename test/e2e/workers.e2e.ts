// Worker processes (issue 21): the built server as one web node and worker processes on one
// PostgreSQL database. A worker SIGKILLed in the middle of a batch loses nothing: its item runs
// again on another worker once its time is up, and the ZIP holds every item exactly once.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/e2e.js';
import { zipEntries } from '../helpers/zip.js';
import { createPostgresDatabase } from '../helpers/test-db.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
let tt: FakeTikTok;
let db: Awaited<ReturnType<typeof createPostgresDatabase>>;
let web: RunningServer;
const workers: ChildProcess[] = [];
let env: Record<string, string>;

/** A `PROCESS_ROLE=worker` process; resolves once it says it is ready (it serves no HTTP). */
function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: ROOT,
    env: { ...web.env, ...env, PROCESS_ROLE: 'worker', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  workers.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('worker is ready')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`worker exited (${code}): ${out}`)));
  });
}

beforeAll(async () => {
  tt = await startFakeTikTok();
  db = await createPostgresDatabase();
  // A lost item is run again 5 s after it started; the queue looks for lost items every second.
  env = {
    DATABASE_URL: db.url,
    UPSTREAM_HOST_MAP: tt.hostMapJson,
    BATCH_ITEM_TIMEOUT_SECONDS: '5',
    JOBS_MAINTENANCE_SECONDS: '1',
    MEDIA_CONCURRENCY: '1',
  };
  web = await startServer({ ...env, PROCESS_ROLE: 'web', VIDEO_INFO_PER_MINUTE: '1000' });
});
afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL');
  await web?.stop();
  await db?.drop();
  await tt?.close();
});

describe('worker processes', () => {
  it('finish a batch whose worker was SIGKILLed mid-item, every item once in the ZIP', async () => {
    const email = `workers${Date.now()}@example.com`;
    const reg = await fetch(`${web.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: web.url },
      body: JSON.stringify({ email, password: 'correct horse battery' }),
    });
    const cookie = reg.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    expect((await web.cli(['user:grant-pro', email])).code).toBe(0);
    const headers = { 'content-type': 'application/json', origin: web.url, cookie };
    // About two seconds per file, so the kill lands in the middle of one.
    const videos = Array.from({ length: 3 }, () => tt.addVideo({ bytesPerSecond: 25_000 }));
    const first = await startWorker();
    const { id } = await (
      await fetch(`${web.url}/api/batch`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ urls: videos.map((v) => v.url) }),
      })
    ).json();
    const view = async () =>
      (await (await fetch(`${web.url}/api/batch/${id}`, { headers })).json()) as {
        status: string;
        items: Array<{ status: string }>;
        downloadUrl?: string;
      };
    await expect
      .poll(async () => (await view()).items.some((i) => i.status === 'running'), { timeout: 20_000 })
      .toBe(true);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    await startWorker();
    await expect.poll(async () => (await view()).status, { timeout: 60_000, interval: 500 }).toBe('done');
    const zip = Buffer.from(await (await fetch(web.url + (await view()).downloadUrl!)).arrayBuffer());
    const names = (await zipEntries(zip)).map((e) => e.name);
    expect(names).toEqual(videos.map((v) => `tiktok-fakecreator-${v.id}.mp4`));
  });
});

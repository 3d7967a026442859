// Our own faults under traffic (issue 18): PostgreSQL stopped and started mid-traffic, ffmpeg
// killed mid-job, the media and temp disks full. Each answers a clear 503/507 that says it is
// ours, recovers by itself, and loses or double-counts no quota slot and serves nothing half-written;
// a download already under way when the database goes finishes and is counted once it is back.
// (A CDN cut mid-file is covered in test/integration/downloader.test.ts and media-failures.test.ts.)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/server/db/client.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { toneMp4 } from '../fakes/media-samples.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PostgreSQL stopped and started mid-traffic', () => {
  let pg: PrivatePostgres;
  let tt: FakeTikTok;
  let t: TestApp;
  beforeAll(async () => {
    pg = await startPrivatePostgres();
    tt = await startFakeTikTok();
    t = await createTestApp({
      database: await openPostgres(pg.url),
      env: { UPSTREAM_HOST_MAP: tt.hostMapJson, VIDEO_INFO_PER_MINUTE: '100000' },
    });
  }, 90_000);
  afterAll(async () => {
    await t?.close().catch(() => undefined);
    await tt?.close();
    pg?.destroy();
  });

  it('answers 503 while it is away, recovers by itself, and keeps the quota exact', { timeout: 90_000 }, async () => {
    const free = await t.signUp();
    const pro = await t.signUp({ pro: true });
    const v = tt.addVideo({ media: { size: 3_000_000 }, bytesPerSecond: 1_500_000 });
    expect((await pro.post('/api/video/info', { url: v.url })).status).toBe(200);

    const statuses: number[] = [];
    let running = true;
    const traffic = (async () => {
      while (running) {
        const answers = await Promise.all([
          pro.get('/api/auth/user'),
          pro.post('/api/video/info', { url: v.url }),
          t.client().get('/api/health'),
        ]);
        for (const r of answers) {
          statuses.push(r.status);
          if (r.status === 503)
            expect((await r.json()).code).toMatch(/^(service\.database_unavailable|health\.database)$/);
          else await r.arrayBuffer();
        }
        await sleep(50);
      }
    })();
    // Pro downloads all along: each one is delivered whole, or answered 503 before any byte.
    const small = tt.addVideo({ media: { size: 400_000 }, bytesPerSecond: 1_000_000 });
    expect((await pro.post('/api/video/info', { url: small.url })).status).toBe(200);
    const downloads: Array<number | string> = [];
    const downloading = (async () => {
      while (running) {
        try {
          const r = await pro.post('/api/video/download', { url: small.url, quality: 'hd' });
          if (r.status === 503) downloads.push(`503 ${(await r.json()).code}`);
          else downloads.push(r.status === 200 ? (await r.arrayBuffer()).byteLength : `status ${r.status}`);
        } catch (err) {
          downloads.push(`dropped: ${(err as Error).message}`); // a connection cut mid-answer
        }
      }
    })();
    // A free download in flight when the database goes away (issue 31): it is not dropped; it
    // finishes, and its count is written once the database is back.
    const inFlight = free.post('/api/video/download', { url: v.url, quality: 'hd' }).then(async (r) => ({
      status: r.status,
      bytes:
        r.status === 200
          ? await r.arrayBuffer().then(
              (b) => b.byteLength,
              () => -1,
            )
          : 0,
    }));
    await expect
      .poll(() => tt.transfers.filter((x) => x.path.includes(`/${v.id}/`)).length, { timeout: 10_000 })
      .toBeGreaterThan(0);
    pg.stop();
    await sleep(3_000);
    pg.start();
    await expect
      .poll(async () => (await t.client().get('/api/health')).status, { timeout: 30_000, interval: 250 })
      .toBe(200);
    await sleep(500);
    running = false;
    await traffic;
    await downloading;
    expect(downloads.filter((d) => d !== small.size && d !== '503 service.database_unavailable')).toEqual([]);
    expect(downloads.filter((d) => d === small.size).length).toBeGreaterThan(0);

    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(statuses).toContain(503);
    expect(statuses.at(-1)).toBe(200);
    expect(await inFlight).toEqual({ status: 200, bytes: v.size });
    await expect
      .poll(async () => (await t.ctx.repos.users.findById(free.userId))!.downloadCount, { timeout: 20_000 })
      .toBe(1);
    expect((await t.ctx.repos.users.findById(free.userId))!.downloadsReserved).toBe(0);

    // Back to normal: a whole download counts exactly once.
    const again = await free.post('/api/video/download', { url: v.url, quality: 'hd' });
    expect(again.status).toBe(200);
    expect((await again.arrayBuffer()).byteLength).toBe(v.size);
    await expect
      .poll(async () => (await t.ctx.repos.users.findById(free.userId))!.downloadCount, { timeout: 5_000 })
      .toBe(2);
    expect((await t.ctx.repos.users.findById(free.userId))!.downloadsReserved).toBe(0);
  });
});

describe('media faults', () => {
  let tt: FakeTikTok;
  let t: TestApp;
  let pro: Awaited<ReturnType<TestApp['signUp']>>;
  const mounts: string[] = [];
  /** A tiny tmpfs over a directory: writes beyond `size` fail with ENOSPC, as on a full disk. */
  function fillUp(dir: string, size: string) {
    fs.mkdirSync(dir, { recursive: true });
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
    } catch (err) {
      throw new Error(`this test mounts a small tmpfs to fill a disk and needs root: ${(err as Error).message}`);
    }
    mounts.push(dir);
  }
  const unmount = (dir: string) => {
    execFileSync('umount', [dir]);
    mounts.splice(mounts.indexOf(dir), 1);
  };
  const walk = (dir: string): string[] =>
    fs.existsSync(dir)
      ? fs
          .readdirSync(dir, { recursive: true, encoding: 'utf8' })
          .filter((f) => fs.statSync(path.join(dir, f)).isFile())
      : [];

  beforeAll(async () => {
    tt = await startFakeTikTok();
    t = await createTestApp({ env: { UPSTREAM_HOST_MAP: tt.hostMapJson } });
    pro = await t.signUp({ pro: true });
  });
  afterAll(async () => {
    for (const m of [...mounts]) unmount(m);
    await t.close();
    await tt.close();
  });

  it('answers 503 media.interrupted, not "unreadable video", when ffmpeg is killed mid-job', {
    timeout: 60_000,
  }, async () => {
    const v = tt.addVideo({ media: { file: toneMp4(240) }, duration: 240 });
    const pending = pro.post('/api/audio/extract', { url: v.url });
    let pid = '';
    await expect
      .poll(
        () => {
          try {
            pid = execFileSync('pgrep', ['-P', String(process.pid), 'ffmpeg'], { encoding: 'utf8' })
              .trim()
              .split('\n')[0];
          } catch {
            pid = '';
          }
          return pid;
        },
        { timeout: 20_000, interval: 50 },
      )
      .not.toBe('');
    process.kill(Number(pid), 'SIGKILL');
    const res = await pending;
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      code: 'media.interrupted',
      message: 'Processing was interrupted on our side. Please try again.',
    });
    expect(await t.ctx.repos.mediaResults.findFresh(`audio:${v.id}`)).toBeUndefined();
  });

  it('answers 507 when the media store is full, keeps no partial file, and works once there is room', {
    timeout: 60_000,
  }, async () => {
    const mediaDir = path.join(t.ctx.config.DATA_DIR, 'media');
    fillUp(mediaDir, '64k');
    const v = tt.addVideo({ media: { file: toneMp4(20) }, duration: 20 });
    const res = await pro.post('/api/audio/extract', { url: v.url });
    expect(res.status).toBe(507);
    expect(await res.json()).toMatchObject({ code: 'storage.full' });
    expect(walk(mediaDir)).toEqual([]);
    expect(await t.ctx.repos.mediaResults.findFresh(`audio:${v.id}`)).toBeUndefined();
    unmount(mediaDir);

    const ok = await pro.post('/api/audio/extract', { url: v.url });
    expect(ok.status).toBe(200);
    const body = await ok.json();
    const file = await pro.get(body.audioUrl);
    expect((await file.arrayBuffer()).byteLength).toBe(Number(body.size));
  });

  it('answers 507, not "the video stopped arriving", when the temp disk fills during the download', {
    timeout: 60_000,
  }, async () => {
    const tmpDir = path.join(t.ctx.config.DATA_DIR, 'tmp');
    fillUp(tmpDir, '128k');
    const v = tt.addVideo({ media: { file: toneMp4(30) }, duration: 30 });
    const res = await pro.post('/api/audio/extract', { url: v.url });
    expect(res.status).toBe(507);
    expect(await res.json()).toMatchObject({ code: 'storage.full' });
    expect(walk(tmpDir)).toEqual([]);
    unmount(tmpDir);
  });
});

// What goes wrong with media, answered clearly: corrupt, empty, muted and cut-off files, a client
// that leaves mid-job (process killed, temp files removed) and a full worker queue (503 + Retry-After).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { mutedMp4, toneMp4 } from '../fakes/media-samples.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** ffmpeg/ffprobe/pocketsphinx processes started by this test process (the app runs in-process). */
function childMediaProcesses(): string[] {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid), '-l'], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => /ffmpeg|ffprobe|pocketsphinx/.test(l));
  } catch {
    return [];
  }
}

describe.each(DB_KINDS)('media failures (%s)', (db) => {
  let tt: FakeTikTok;
  let t: TestApp;
  let pro: Awaited<ReturnType<TestApp['signUp']>>;
  let tmpRoot: string;
  const jobDirs = () => (fs.existsSync(tmpRoot) ? fs.readdirSync(tmpRoot) : []);
  beforeAll(async () => {
    tt = await startFakeTikTok();
    t = await createTestApp({
      db,
      env: { UPSTREAM_HOST_MAP: tt.hostMapJson, MEDIA_CONCURRENCY: '1', MEDIA_QUEUE_LIMIT: '1' },
    });
    tmpRoot = path.join(t.ctx.config.DATA_DIR, 'tmp', 'media');
    pro = await t.signUp({ pro: true });
  });
  afterAll(async () => {
    await t.close();
    await tt.close();
  });

  it('answers 422 media.unreadable for a corrupt file, on both tools, and leaves no temp files', async () => {
    const v = tt.addVideo({
      media: { bytes: Buffer.concat([Buffer.from('\x00\x00\x00\x18ftypmp42'), Buffer.alloc(40_000, 7)]) },
    });
    for (const p of ['/api/audio/extract', '/api/transcription/generate']) {
      const res = await pro.post(p, { url: v.url });
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({
        code: 'media.unreadable',
        message: 'This video file could not be read. Please try a different video.',
      });
    }
    expect(jobDirs()).toEqual([]);
  });

  it('answers 502 media.empty for a 0-byte file', async () => {
    const v = tt.addVideo({ media: { bytes: Buffer.alloc(0) } });
    const res = await pro.post('/api/audio/extract', { url: v.url });
    expect(res.status).toBe(502);
    expect((await res.json()).code).toBe('media.empty');
  });

  it('answers 422 media.no_audio for a video without a sound track', async () => {
    const v = tt.addVideo({ media: { file: mutedMp4(2) } });
    const res = await pro.post('/api/audio/extract', { url: v.url });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ code: 'media.no_audio', message: 'This video has no sound to extract.' });
  });

  it('answers 502 upstream.incomplete when the CDN cuts the file mid-way, and stores nothing', async () => {
    const v = tt.addVideo({ media: { file: toneMp4(20) }, cutAfterBytes: 60_000 });
    const res = await pro.post('/api/audio/extract', { url: v.url });
    expect(res.status).toBe(502);
    const body = await res.json();
    expect(body.code).toBe('upstream.incomplete');
    expect(body.message).toMatch(/stopped arriving/);
    expect(await t.ctx.repos.mediaResults.findFresh(`audio:${v.id}`)).toBeUndefined();
    expect(jobDirs()).toEqual([]);
  });

  it('stops the work and removes temp files when the client disconnects', async () => {
    const v = tt.addVideo({ media: { file: toneMp4(240) }, duration: 240 });
    const ac = new AbortController();
    const pending = fetch(`${t.baseUrl}/api/audio/extract`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: t.baseUrl,
        cookie: [...pro.cookies].map(([k, val]) => `${k}=${val}`).join('; '),
      },
      body: JSON.stringify({ url: v.url }),
      signal: ac.signal,
    }).catch((e) => e);
    // Wait until the job is really working (its temp dir exists and ffmpeg runs), then leave.
    for (let i = 0; i < 200 && !(jobDirs().length && childMediaProcesses().length); i++) await sleep(25);
    expect(jobDirs().length).toBe(1);
    ac.abort();
    expect(await pending).toBeInstanceOf(Error);
    for (let i = 0; i < 200 && (jobDirs().length || childMediaProcesses().length); i++) await sleep(25);
    expect(jobDirs()).toEqual([]);
    expect(childMediaProcesses()).toEqual([]);
    expect(await t.ctx.repos.mediaResults.findFresh(`audio:${v.id}`)).toBeUndefined();
  });

  it('answers 503 media.busy with Retry-After when the queue is full, and serves the rest', async () => {
    // One worker, one queue place: of three simultaneous long jobs, one must be refused.
    const videos = [0, 1, 2].map(() => tt.addVideo({ media: { file: toneMp4(30) }, duration: 30 }));
    const results = await Promise.all(videos.map((v) => pro.post('/api/audio/extract', { url: v.url })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 503]);
    const busy = results.find((r) => r.status === 503)!;
    expect(busy.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await busy.json()).code).toBe('media.busy');
    expect(jobDirs()).toEqual([]);
  });
});

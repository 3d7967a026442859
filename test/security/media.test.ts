// Media routes as an attacker uses them (issue 18): the preview stream as an uncounted download,
// a shared media job dropped when its first requester leaves, and the signed-out thumbnail route
// as a cheap way to make the server fetch TikTok pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { ffprobe, toneMp4 } from '../fakes/media-samples.js';
import { FREE_PREVIEW_MAX_SECONDS } from '../../src/server/services/preview.service.js';

describe('media routes under attack', () => {
  let tt: FakeTikTok;
  let t: TestApp;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-sec-media-'));
  beforeAll(async () => {
    tt = await startFakeTikTok();
    t = await createTestApp({ env: { UPSTREAM_HOST_MAP: tt.hostMapJson, VIDEO_INFO_PER_MINUTE: '5' } });
  });
  afterAll(async () => {
    await t.close();
    await tt.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('gives a free user at 6/6 a short clip as preview, never the file; Pro gets the file with ranges', async () => {
    const source = toneMp4(30, { faststart: true });
    const v = tt.addVideo({ media: { file: source }, duration: 30 });
    const free = await t.signUp({ downloadCount: 6 });
    const looked = await free.post('/api/video/info', { url: v.url });
    expect(looked.status).toBe(200);
    const { videoUrl } = await looked.json(); // keyed for this person (decision 0082)
    const res = await free.get(videoUrl);
    expect(res.status).toBe(302);
    const clipUrl = res.headers.get('location')!;
    expect(clipUrl).toMatch(/^\/api\/media\/preview\/[a-f0-9]+\.mp4\?exp=\d+&sig=/);
    const clip = await free.get(clipUrl);
    expect(clip.status).toBe(200);
    const bytes = Buffer.from(await clip.arrayBuffer());
    expect(bytes.length).toBeLessThan(fs.statSync(source).size / 2);
    const file = path.join(tmp, 'clip.mp4');
    fs.writeFileSync(file, bytes);
    const probed = ffprobe(file);
    expect(probed.duration).toBeGreaterThan(FREE_PREVIEW_MAX_SECONDS - 1);
    expect(probed.duration).toBeLessThan(FREE_PREVIEW_MAX_SECONDS + 1);
    // Players seek with ranges on the clip too.
    const part = await free.get(clipUrl, { range: 'bytes=0-99' });
    expect(part.status).toBe(206);
    // Asking again reuses the stored clip: no second CDN transfer.
    const transfers = tt.transfers.length;
    expect((await free.get(videoUrl)).status).toBe(302);
    expect(tt.transfers.length).toBe(transfers);
    // The quota is untouched either way.
    expect((await t.ctx.repos.users.findById(free.userId))!.downloadCount).toBe(6);

    const pro = await t.signUp({ pro: true });
    const proLink = (await (await pro.post('/api/video/info', { url: v.url })).json()).videoUrl;
    const full = await pro.get(proLink, { range: 'bytes=0-99' });
    expect(full.status).toBe(206);
    expect(full.headers.get('content-range')).toBe(`bytes 0-99/${fs.statSync(source).size}`);
  });

  it('keeps a shared audio job alive while a second requester still waits', async () => {
    const v = tt.addVideo({ media: { file: toneMp4(20) }, duration: 20, bytesPerSecond: 200_000 });
    const pro = await t.signUp({ pro: true });
    const cookie = [...pro.cookies].map(([k, val]) => `${k}=${val}`).join('; ');
    const ac = new AbortController();
    const first = fetch(`${t.baseUrl}/api/audio/extract`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: t.baseUrl, cookie },
      body: JSON.stringify({ url: v.url }),
      signal: ac.signal,
    }).catch((e: unknown) => e);
    // The first request's transfer from the CDN has started: the job runs.
    await expect.poll(() => tt.transfers.some((x) => x.path.includes(`/${v.id}/`)), { timeout: 10_000 }).toBe(true);
    const second = pro.post('/api/audio/extract', { url: v.url });
    await expect.poll(() => t.ctx.services.audio.waiting(`audio:${v.id}`), { timeout: 5_000 }).toBe(2);
    ac.abort();
    expect(await first).toBeInstanceOf(Error);
    const res = await second;
    expect(res.status).toBe(200);
    expect((await res.json()).audioUrl).toMatch(/^\/api\/media\/audio\//);
  });

  it('strips NUL characters from a TikTok description instead of failing on them', async () => {
    const v = tt.addVideo({ desc: 'Nul\u0000 inside #nul\u0000tag' });
    const pro = await t.signUp({ pro: true });
    const res = await pro.post('/api/video/info', { url: v.url });
    expect(res.status).toBe(200);
    expect((await res.json()).title).toBe('Nul inside #nultag');
  });

  it('counts a signed-out thumbnail of an id not looked up lately as a lookup', async () => {
    const ids = Array.from({ length: 12 }, () => tt.addVideo().id);
    const pages = () =>
      tt.requests.filter((r) => r.host.startsWith('www.tiktok.com') && r.path.includes('/video/')).length;
    const pagesBefore = pages();
    const statuses: number[] = [];
    for (const id of ids) statuses.push((await t.client().get(`/api/video/thumbnail/${id}`)).status);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(7);
    expect(pages() - pagesBefore).toBeLessThanOrEqual(5);
  });
});

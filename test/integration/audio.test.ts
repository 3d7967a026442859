// Audio extractor through the fake TikTok CDN with real media made by ffmpeg: codec, bitrate and
// duration checked with ffprobe; the stored result is reused and served by an expiring signed link.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { ffprobe, silentMp4, toneMp4 } from '../fakes/media-samples.js';
import { signMediaLink } from '../../src/server/adapters/storage/signed-links.js';

const SECRET = 'test-secret-test-secret-test-secret-0123'; // test-app's SESSION_SECRET

describe.each(DB_KINDS)('audio extractor (%s)', (db) => {
  let tt: FakeTikTok;
  let t: TestApp;
  let pro: Awaited<ReturnType<TestApp['signUp']>>;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-audio-test-'));
  beforeAll(async () => {
    tt = await startFakeTikTok();
    t = await createTestApp({ db, env: { UPSTREAM_HOST_MAP: tt.hostMapJson } });
    pro = await t.signUp({ pro: true });
  });
  afterAll(async () => {
    await t.close();
    await tt.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('refuses signed-out and free users with the Pro gate', async () => {
    const v = tt.addVideo();
    expect((await t.client().post('/api/audio/extract', { url: v.url })).status).toBe(401);
    const free = await t.signUp();
    const res = await free.post('/api/audio/extract', { url: v.url });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      code: 'billing.pro_required',
      message: 'This is a Pro feature. Upgrade to use it.',
    });
  });

  it('validates the link with the founding schema message, as every tool does (issue 31)', async () => {
    const empty = await pro.post('/api/audio/extract', { url: '  ' });
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toBe('Please provide a valid TikTok or Bluesky or Reddit URL');
    const other = await pro.post('/api/audio/extract', { url: 'https://www.youtube.com/watch?v=abc' });
    expect(other.status).toBe(400);
    expect((await other.json()).message).toBe('Please provide a valid TikTok or Bluesky or Reddit URL');
    const missing = await pro.post('/api/audio/extract', {});
    expect(missing.status).toBe(400);
  });

  it('extracts MP3 192k CBR of the same length from a moov-at-end MP4, then reuses the stored file', async () => {
    const source = toneMp4(6); // moov atom at the end: only works from a seekable file
    const v = tt.addVideo({ desc: 'Tone test #audio', media: { file: source }, duration: 6 });
    const before = tt.transfers.length;
    const res = await pro.post('/api/audio/extract', { url: v.url });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ title: 'Tone test #audio', author: 'fakecreator', duration: 6 });
    expect(body.size).toMatch(/^\d+$/);
    expect(body.audioUrl).toMatch(/^\/api\/media\/audio\/[a-f0-9]+\.mp3\?exp=\d+&sig=[\w-]+$/);
    expect(tt.transfers.length).toBe(before + 1);

    // The link works without the session (a plain <a download>), with the exact byte count.
    const file = await fetch(t.baseUrl + body.audioUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('audio/mpeg');
    expect(file.headers.get('content-disposition')).toContain('Tone_test_audio.mp3');
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(String(bytes.length)).toBe(body.size);
    const out = path.join(tmp, 'out.mp3');
    fs.writeFileSync(out, bytes);
    const p = ffprobe(out);
    expect(p.codec).toBe('mp3');
    expect(Math.abs(p.bitRate - 192_000)).toBeLessThan(1500);
    expect(Math.abs(p.duration - ffprobe(source).duration)).toBeLessThanOrEqual(0.1);

    const again = await pro.post('/api/audio/extract', { url: v.url });
    expect(again.status).toBe(200);
    const second = await again.json();
    expect(second.size).toBe(body.size);
    expect(second.audioUrl.split('?')[0]).toBe(body.audioUrl.split('?')[0]);
    expect(tt.transfers.length).toBe(before + 1); // no second download
    const rows = await t.ctx.repos.mediaResults.findFresh(`audio:${v.id}`);
    expect(rows?.size).toBe(Number(body.size));
  });

  it('serves byte ranges and refuses tampered or expired links', async () => {
    const v = tt.addVideo({ media: { file: toneMp4(3, { faststart: true }) }, duration: 3 });
    const body = await (await pro.post('/api/audio/extract', { url: v.url })).json();
    const ranged = await fetch(t.baseUrl + body.audioUrl, { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 0-99/${body.size}`);
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);

    const tampered = await fetch(t.baseUrl + body.audioUrl.replace(/sig=.{4}/, 'sig=AAAA'));
    expect(tampered.status).toBe(403);
    expect((await tampered.json()).code).toBe('media.link_invalid');
    const key = body.audioUrl.split('?')[0].replace('/api/media/', '');
    const expired = await fetch(t.baseUrl + signMediaLink(SECRET, key, Math.floor(Date.now() / 1000) - 5));
    expect(expired.status).toBe(410);
    expect((await expired.json()).code).toBe('media.link_expired');
  });

  it("takes a photo post's music track as its sound", async () => {
    const v = tt.addVideo({ media: { file: toneMp4(8, { faststart: true }) }, duration: 8 });
    v.item.imagePost = { images: [{ imageURL: { urlList: ['https://p16-sign.tiktokcdn-us.com/fake/photo.jpeg'] } }] };
    const res = await pro.post('/api/audio/extract', { url: v.url.replace('/video/', '/photo/') });
    expect(res.status).toBe(200);
    const body = await res.json();
    const out = path.join(tmp, 'music.mp3');
    fs.writeFileSync(out, Buffer.from(await (await fetch(t.baseUrl + body.audioUrl)).arrayBuffer()));
    // The fake's music track is 3 s long; the video would have been 8 s.
    expect(Math.abs(ffprobe(out).duration - ffprobe(v.musicFile!).duration)).toBeLessThanOrEqual(0.1);
    expect(tt.transfers.at(-1)!.path).toContain('/music/');
  });

  it('turns a silent sound track into a silent MP3 of the right length', async () => {
    const v = tt.addVideo({ media: { file: silentMp4(3) }, duration: 3 });
    const res = await pro.post('/api/audio/extract', { url: v.url });
    expect(res.status).toBe(200);
    const body = await res.json();
    const out = path.join(tmp, 'silent.mp3');
    fs.writeFileSync(out, Buffer.from(await (await fetch(t.baseUrl + body.audioUrl)).arrayBuffer()));
    expect(Math.abs(ffprobe(out).duration - 3)).toBeLessThanOrEqual(0.1);
  });

  it('removes expired results from the store and the table', async () => {
    const v = tt.addVideo({ media: { file: toneMp4(3, { faststart: true }) }, duration: 3 });
    const body = await (await pro.post('/api/audio/extract', { url: v.url })).json();
    const key = body.audioUrl.split('?')[0].replace('/api/media/', '');
    await t.ctx.repos.mediaResults.upsert({
      ...(await t.ctx.repos.mediaResults.findFresh(`audio:${v.id}`))!,
      expiresAt: new Date(Date.now() - 1000),
    });
    expect(await t.ctx.services.mediaResults.cleanup()).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(path.join(t.ctx.config.DATA_DIR, 'media', key))).toBe(false);
    expect(await t.ctx.repos.mediaResults.findByStorageKey(key)).toBeUndefined();
    expect((await fetch(t.baseUrl + body.audioUrl)).status).toBe(410);
  });
});

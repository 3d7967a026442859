// Best quality on every post (issue 28): TikTok's sharper gears come as whole MP4 files with their
// own sound (older posts) or as video-only DASH files with a separate sound track (newer ones). A
// whole gear is relayed as it is (no remux, sized up front); a silent or missing file falls back to
// the next one; when every file fails, one 424 naming what was tried and the slot goes back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { aacSound, FFPROBE, hevcVideoOnly, hevcWhole } from '../fakes/media-samples.js';
import { attachmentName } from '../helpers/attachment-name.js';

function streams(file: string): Array<{ codec_type: string; codec_name: string; height?: number }> {
  return JSON.parse(execFileSync(FFPROBE, ['-v', 'error', '-show_streams', '-of', 'json', file], { encoding: 'utf8' }))
    .streams;
}

describe.each(DB_KINDS)('every gear form (%s)', (db) => {
  let tt: FakeTikTok;
  let t: TestApp;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-gears-'));
  beforeAll(async () => {
    tt = await startFakeTikTok();
    t = await createTestApp({ db, env: { UPSTREAM_HOST_MAP: tt.hostMapJson } });
  });
  afterAll(async () => {
    await tt.close();
    await t.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const save = async (res: Response, name: string) => {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    return file;
  };
  const count = async (userId: string) => {
    const user = await t.ctx.repos.users.findById(userId);
    if (!user) throw new Error(`no user ${userId}`);
    return user;
  };

  it('offers an older post’s whole HEVC 1080p and 720p and sends the 1080p file as it is, sized up front, no remux', async () => {
    const whole1080 = hevcWhole(1080, 1920, 3);
    const v = tt.addVideo({
      hevc: { form: 'mp4', gears: { '1080p': whole1080, '720p': hevcWhole(720, 1280, 3) }, sounds: [] },
    });
    const info = await (await t.client().post('/api/video/info', { url: v.url })).json();
    expect(info.downloadOptions.map((o: { quality: string; codec: string }) => [o.quality, o.codec])).toEqual([
      ['1080p', 'hevc'],
      ['720p', 'hevc'],
      ['hd', 'h264'],
      ['sd', 'h264'],
      ['sound', undefined], // no DASH track on an older post: the music file
    ]);
    const c = await t.signUp();
    const res = await c.post('/api/video/download', { url: v.url, quality: '1080p' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-video-quality')).toBe('1080p');
    expect(Number(res.headers.get('content-length'))).toBe(fs.statSync(whole1080).size);
    const file = await save(res, 'whole.mp4');
    // Byte for byte TikTok's file: HEVC with its own AAC sound.
    expect(fs.readFileSync(file).equals(fs.readFileSync(whole1080))).toBe(true);
    expect(
      streams(file)
        .map((s) => s.codec_name)
        .sort(),
    ).toEqual(['aac', 'hevc']);
    expect(await t.ctx.repos.mediaResults.findFresh(`remux:${v.id}:1080p`)).toBeUndefined();
    await expect.poll(async () => (await count(c.userId)).downloadCount).toBe(1);
  });

  it('skips a whole gear that turns out silent: the next size with sound, never a silent file', async () => {
    const v = tt.addVideo({
      hevc: {
        form: 'mp4',
        gears: { '1080p': hevcWhole(1080, 1920, 3, { silent: true }), '720p': hevcWhole(720, 1280, 3) },
        sounds: [],
      },
    });
    const c = await t.signUp({ pro: true });
    const res = await c.post('/api/video/download', { url: v.url, quality: '1080p' });
    expect(res.headers.get('x-video-quality')).toBe('720p');
    const s = streams(await save(res, 'fallback.mp4'));
    expect(s.find((x) => x.codec_type === 'video')?.height).toBe(1280);
    expect(s.some((x) => x.codec_type === 'audio')).toBe(true);
  });

  it('falls back from a DASH gear that answers 404 to a whole gear of the same size', async () => {
    const whole = hevcWhole(1080, 1920, 3);
    const v = tt.addVideo({
      hevc: {
        gears: { '1080p': null, '720p': hevcVideoOnly(720, 1280, 3) },
        sounds: [aacSound(3)],
        wholeAlternates: { '1080p': whole },
      },
    });
    const c = await t.signUp({ pro: true });
    const res = await c.post('/api/video/download', { url: v.url, quality: '1080p' });
    expect(res.headers.get('x-video-quality')).toBe('1080p');
    expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(whole))).toBe(true);
  });

  it('answers one 424 naming what was tried when every file fails, and gives the slot back', async () => {
    const v = tt.addVideo({
      hevc: { form: 'mp4', gears: { '1080p': null, '720p': null }, sounds: [] },
      h264Missing: true,
    });
    const c = await t.signUp();
    const res = await c.post('/api/video/download', { url: v.url, quality: '1080p' });
    expect(res.status).toBe(424);
    const body = await res.json();
    expect(body.code).toBe('upstream.unavailable');
    expect(body.message).toContain('1080p, 720p, hd, sd');
    const user = await count(c.userId);
    expect([user.downloadCount, user.downloadsReserved]).toEqual([0, 0]);
  });

  it('serves the download link each option advertises (GET), counted like any download, never for another site', async () => {
    const v = tt.addVideo();
    const c = await t.signUp();
    const info = await (await c.post('/api/video/info', { url: v.url })).json();
    const hd = info.downloadOptions.find((o: { quality: string }) => o.quality === 'hd');
    // Keyed for this person: curl sends no Fetch Metadata (decision 0082).
    expect(hd.url).toMatch(/^\/api\/video\/download\?url=.+&quality=hd&t=\d+\.[\w-]{43}$/);
    expect((await c.get(hd.url, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    const res = await c.get(hd.url); // as curl asks; a browser's own navigation: test/security/safe-gets.test.ts
    expect(res.status).toBe(200);
    expect(attachmentName(res)).toMatch(/^tiktok-.+\.mp4$/);
    expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(v.mediaFile as string))).toBe(true);
    await expect.poll(async () => (await count(c.userId)).downloadCount).toBe(1);
    expect((await t.client().get(hd.url)).status).toBe(401);
  });

  it('fetches the page again once when the signed links expired, for a remuxed gear and for the H.264 file', async () => {
    const c = await t.signUp({ pro: true });
    const dash = tt.addVideo({
      staleFirstPage: true,
      hevc: { gears: { '1080p': hevcVideoOnly(1080, 1920, 3), '720p': null }, sounds: [aacSound(3)] },
    });
    expect((await c.post('/api/video/info', { url: dash.url })).status).toBe(200); // the stale page, cached
    const r1 = await c.post('/api/video/download', { url: dash.url, quality: '1080p' });
    expect(r1.headers.get('x-video-quality')).toBe('1080p');
    expect(
      streams(await save(r1, 'renewed.mp4'))
        .map((x) => x.codec_name)
        .sort(),
    ).toEqual(['aac', 'hevc']);
    const h264 = tt.addVideo({ staleFirstPage: true });
    expect((await c.post('/api/video/info', { url: h264.url })).status).toBe(200);
    const r2 = await c.post('/api/video/download', { url: h264.url, quality: 'hd' });
    expect(r2.status).toBe(200);
    expect(Buffer.from(await r2.arrayBuffer()).equals(fs.readFileSync(h264.mediaFile as string))).toBe(true);
  });

  it('offers the original sound as TikTok stores it, copied byte for byte, and the covers and avatar as downloads', async () => {
    const sound = aacSound(3);
    const v = tt.addVideo({ hevc: { gears: { '1080p': null, '720p': null }, sounds: [sound] } });
    const info = await (await t.client().post('/api/video/info', { url: v.url })).json();
    const option = info.downloadOptions.find((o: { quality: string }) => o.quality === 'sound');
    expect(option).toMatchObject({ format: 'm4a', bitrate: 97242, resolution: 'Audio' });
    const c = await t.signUp();
    const res = await c.post('/api/video/download', { url: v.url, quality: 'sound' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mp4');
    expect(attachmentName(res)).toMatch(/-sound\.m4a$/);
    expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(sound))).toBe(true);
    await expect.poll(async () => (await count(c.userId)).downloadCount).toBe(1);

    expect(info.pictures.map((p: { kind: string }) => p.kind)).toEqual(['cover', 'animated-cover', 'avatar']);
    for (const p of info.pictures as Array<{ kind: string; url: string }>) {
      const pic = await t.client().get(`${p.url}?download=1`);
      expect(pic.status, p.kind).toBe(200);
      expect(attachmentName(pic)).toBe(`tiktok-fakecreator-${v.id}-${p.kind}.jpg`);
      expect((await pic.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
    expect((await t.client().get(`/api/video/picture/${v.id}/banner`)).status).toBe(400);

    const photos = tt.addPhotoPost();
    const photoInfo = await (await t.client().post('/api/video/info', { url: photos.url })).json();
    expect(photoInfo.downloadOptions.map((o: { quality: string }) => o.quality)).toEqual([
      'images',
      'slideshow',
      'sound',
    ]);
    const mp3 = await c.post('/api/video/download', { url: photos.url, quality: 'sound' });
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await mp3.arrayBuffer()).equals(fs.readFileSync(photos.sound as string))).toBe(true);
  });
});

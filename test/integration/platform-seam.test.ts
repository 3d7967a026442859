// The platform seam (issue 19): a second, made-up platform ("Clips", test/fakes/clips/) registered
// next to TikTok is looked up, downloaded, previewed, turned into MP3 and captioned through the
// same routes and services, with `platform` stored on its rows; TikTok keeps working beside it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/fake-tiktok.js';
import { startFakeClips } from '../fakes/clips/fake-clips-server.js';
import { createClipsPlatform } from '../fakes/clips/clips.platform.js';
import { builtInPlatforms } from '../../src/server/platforms/registry.js';
import { ffprobe, toneMp4 } from '../fakes/media-samples.js';
import { sampleJpeg, sampleMp3 } from '../fakes/fake-tiktok-media.js';

describe.each(DB_KINDS)('a second platform through the seam (%s)', (db) => {
  let tt: FakeTikTok;
  let clips: Awaited<ReturnType<typeof startFakeClips>>;
  let t: TestApp;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-seam-'));
  const video = toneMp4(4, { faststart: true });
  beforeAll(async () => {
    tt = await startFakeTikTok();
    clips = await startFakeClips();
    t = await createTestApp({
      db,
      env: { UPSTREAM_HOST_MAP: JSON.stringify({ ...tt.hostMap, ...clips.hostMap }) },
      overrides: { platforms: (http) => [...builtInPlatforms({ http }), createClipsPlatform({ http })] },
    });
  });
  afterAll(async () => {
    await Promise.all([tt.close(), clips.close(), t.close()]);
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const rowsOf = async (query: ReturnType<typeof sql>) => {
    const result = (await t.ctx.db.execute(query)) as unknown as
      | { rows?: Array<Record<string, unknown>> }
      | Array<Record<string, unknown>>;
    return Array.isArray(result) ? result : (result.rows ?? []);
  };

  it('looks a clip up, by its link and by its short link, with our own by-id links naming the platform', async () => {
    const url = clips.add({ id: 'abcd1234', file: video, cover: sampleJpeg(), sound: null, vtt: null, seconds: 4 });
    const info = await (await t.client().post('/api/video/info', { url })).json();
    expect(info).toMatchObject({
      platform: 'clips',
      videoId: 'abcd1234',
      title: 'Clip abcd1234',
      author: 'clipmaker',
      mediaType: 'video',
      thumbnail: '/api/video/thumbnail/abcd1234?platform=clips',
      videoUrl: '/api/video/stream/abcd1234?platform=clips',
    });
    expect(info.downloadOptions.map((o: { quality: string; resolution: string }) => [o.quality, o.resolution])).toEqual(
      [['hd', '320x568']],
    );
    const short = clips.addShortLink('xyz', 'abcd1234');
    expect((await (await t.client().post('/api/video/info', { url: short })).json()).videoId).toBe('abcd1234');
    const cover = await t.client().get(info.thumbnail);
    expect(Buffer.from(await cover.arrayBuffer()).equals(fs.readFileSync(sampleJpeg()))).toBe(true);
    // TikTok is unchanged beside it, and a link neither platform knows is refused before any request.
    expect((await (await t.client().post('/api/video/info', { url: tt.fixtureUrl })).json()).platform).toBe('tiktok');
    const other = await t.client().post('/api/video/info', { url: 'https://clips.example/u/someone' });
    expect([other.status, (await other.json()).code]).toEqual([400, 'link.unsupported']);
    const wrongId = await t.client().get('/api/video/thumbnail/NOT_AN_ID?platform=clips');
    expect(wrongId.status).toBe(400);
  });

  it('downloads a clip with one quota slot, and stores the platform on the row', async () => {
    const url = clips.add({ id: 'dl000001', file: video, cover: sampleJpeg(), sound: null, vtt: null, seconds: 4 });
    const c = await t.signUp();
    const res = await c.post('/api/video/download', { url, quality: 'hd' });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(video))).toBe(true);
    await expect.poll(async () => (await t.ctx.repos.users.findById(c.userId))!.downloadCount).toBe(1);
    expect(await rowsOf(sql`select platform, video_id from downloads where user_id = ${c.userId}`)).toEqual([
      { platform: 'clips', video_id: 'dl000001' },
    ]);
  });

  it('previews a clip, extracts its MP3 and reads its captions', async () => {
    const vtt = 'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nHello from Clips\n';
    const url = clips.add({ id: 'au000001', file: video, cover: sampleJpeg(), sound: sampleMp3(), vtt, seconds: 4 });
    const pro = await t.signUp({ pro: true });
    const audio = await pro.post('/api/audio/extract', { url });
    expect(audio.status).toBe(200);
    const body = await audio.json();
    const mp3 = path.join(tmp, 'clip.mp3');
    fs.writeFileSync(mp3, Buffer.from(await (await fetch(t.baseUrl + body.audioUrl)).arrayBuffer()));
    expect(Math.abs(ffprobe(mp3).duration - 4)).toBeLessThan(0.2); // the video's sound, not the 3 s track
    expect(await rowsOf(sql`select platform from media_results where key = ${'audio:clips-au000001'}`)).toEqual([
      { platform: 'clips' },
    ]);

    const preview = await pro.get('/api/video/stream/au000001?platform=clips');
    expect(preview.status).toBe(200);
    expect(Buffer.from(await preview.arrayBuffer()).equals(fs.readFileSync(video))).toBe(true);

    const captions = await pro.post('/api/transcription/generate', { url });
    expect(captions.status).toBe(200);
    expect(JSON.stringify(await captions.json())).toContain('Hello from Clips');
  });
});

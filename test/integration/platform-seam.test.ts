// The platform seam (issues 19 and 30): a second, made-up platform ("Clips", test/fakes/clips/)
// registered next to TikTok is looked up, downloaded, previewed, turned into MP3 and captioned
// through the same routes and services, with `platform` stored on its rows; its files are named
// after it, its errors name it, and every link form (the API's and, through GET /api/platforms, the
// client's) accepts its links. The two real platforms (TikTok, Bluesky) keep working beside it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { startFakeClips } from '../fakes/clips/fake-clips-server.js';
import { createClipsPlatform } from '../fakes/clips/clips.platform.js';
import { builtInPlatforms } from '../../src/server/platforms/registry.js';
import { ffprobe, toneMp4 } from '../fakes/media-samples.js';
import { sampleJpeg, sampleMp3 } from '../fakes/tiktok/media.js';
import { zipEntries } from '../helpers/zip.js';
import { allLinks, extractLink, platformOfLink } from '../../src/shared/platform-links.js';
import type { PlatformInfo } from '../../src/shared/contracts/platforms.js';
import { attachmentName } from '../helpers/attachment-name.js';

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
    expect(attachmentName(res)).toBe('clips-clipmaker-dl000001.mp4');
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

    const { videoUrl } = await (await pro.post('/api/video/info', { url })).json();
    const preview = await pro.get(videoUrl); // the person's keyed link (decision 0082)
    expect(preview.status).toBe(200);
    expect(Buffer.from(await preview.arrayBuffer()).equals(fs.readFileSync(video))).toBe(true);

    const captions = await pro.post('/api/transcription/generate', { url });
    expect(captions.status).toBe(200);
    expect(JSON.stringify(await captions.json())).toContain('Hello from Clips');
  });

  it('tells the client its name and link shape, and every client link helper accepts its links', async () => {
    const list = (await (await t.client().get('/api/platforms')).json()) as PlatformInfo[];
    // Two real platforms from the registry, then the made-up one.
    expect(builtInPlatforms({ http: t.ctx.adapters.http }).map((p) => p.id)).toEqual(['tiktok', 'bluesky']);
    expect(list.map((p) => [p.id, p.name, p.separateSound])).toEqual([
      ['tiktok', 'TikTok', true],
      ['bluesky', 'Bluesky', false],
      ['clips', 'Clips', true],
    ]);
    const clipLink = 'https://clips.example/v/abcd1234';
    expect(platformOfLink(clipLink, list)?.id).toBe('clips');
    expect(platformOfLink(list[2].example, list)?.id).toBe('clips');
    expect(platformOfLink(list[1].example, list)?.id).toBe('bluesky');
    expect(platformOfLink('https://clips.example/u/someone', list)).toBeNull();
    expect(extractLink(`Look at this clip! ${clipLink}/?ref=share.`, list)).toBe(`${clipLink}/?ref=share`);
    expect(allLinks(`${clipLink}\n${tt.fixtureUrl}`, list)).toEqual([clipLink, tt.fixtureUrl]);
  });

  it('names itself in its errors, and every platform for a link none knows', async () => {
    const c = t.client();
    const gone = await c.post('/api/video/info', { url: 'https://clips.example/v/nothere1' });
    expect([gone.status, (await gone.json()).message]).toEqual([
      404,
      'This Clips video was removed or does not exist. Check the link or try a different video.',
    ]);
    const down = await c.post('/api/video/info', { url: clips.breakClip('broken01') });
    expect([down.status, (await down.json()).message]).toEqual([
      424,
      'Clips is not answering right now. Please try again in a few minutes.',
    ]);
    const pro = await t.signUp({ pro: true });
    for (const [path, body] of [
      ['/api/video/info', {}],
      ['/api/audio/extract', {}],
      ['/api/transcription/generate', {}],
    ] as const) {
      const res = await pro.post(path, { ...body, url: 'https://example.com/v/1' });
      expect([res.status, (await res.json()).message], path).toEqual([
        400,
        'Please provide a valid TikTok or Bluesky or Clips URL',
      ]);
    }
  });

  it('takes its links in a batch, zips its files under its name, and lists it among trending videos', async () => {
    const pro = await t.signUp({ pro: true });
    const url = clips.add({ id: 'bt000001', file: video, cover: sampleJpeg(), sound: null, vtt: null, seconds: 4 });
    const created = await (await pro.post('/api/batch', { urls: [url] })).json();
    expect(created.items).toEqual([{ url, status: 'queued' }]);
    const view = async () => (await pro.get(`/api/batch/${created.id}`)).json();
    await expect.poll(async () => (await view()).status, { timeout: 30_000 }).toBe('done');
    const zip = await fetch(t.baseUrl + (await view()).downloadUrl);
    expect(attachmentName(zip)).toMatch(/^batch-[0-9a-f]{8}\.zip$/);
    const entries = await zipEntries(Buffer.from(await zip.arrayBuffer()));
    expect(entries.map((e) => e.name)).toEqual(['clips-clipmaker-bt000001.mp4']);

    // The curated list keeps Fetch Info's own thumbnail path for a clip too.
    const info = await (await pro.post('/api/video/info', { url })).json();
    const curated = await pro.post('/api/trending-videos', {
      title: info.title,
      videoUrl: url,
      platform: 'tiktok',
      thumbnailUrl: info.thumbnail,
    });
    expect(curated.status).toBe(201);
    expect((await curated.json()).thumbnailUrl).toBe('/api/video/thumbnail/bt000001?platform=clips');
  });
});

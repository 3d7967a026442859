// The platform seam (issues 19 and 30): a second, made-up platform ("Clips", test/fakes/clips/)
// registered next to TikTok is looked up, downloaded, previewed, turned into MP3 and captioned
// through the same routes and services, with `platform` stored on its rows; its files are named
// after it, its errors name it, and every link form (the API's and, through GET /api/platforms, the
// client's) accepts its links. The real platforms (TikTok, Bluesky, Reddit) keep working beside it.
// A third made-up platform, "Parts" (test/fakes/parts/, issue 44), has only split files (the video
// alone, its sound apart) under labels no service knows: batch, preview, MP3 and captions still
// give files with sound, decided from the neutral model alone.
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
import { startFakeParts } from '../fakes/parts/fake-parts-server.js';
import { createPartsPlatform } from '../fakes/parts/parts.platform.js';
import { execFileSync } from 'node:child_process';
import { FFPROBE, speechMp4, wordErrorRate } from '../fakes/media-samples.js';
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
  let parts: Awaited<ReturnType<typeof startFakeParts>>;
  let t: TestApp;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-seam-'));
  const video = toneMp4(4, { faststart: true });
  beforeAll(async () => {
    tt = await startFakeTikTok();
    clips = await startFakeClips();
    parts = await startFakeParts();
    t = await createTestApp({
      db,
      env: { UPSTREAM_HOST_MAP: JSON.stringify({ ...tt.hostMap, ...clips.hostMap, ...parts.hostMap }) },
      overrides: {
        platforms: (http) => [
          ...builtInPlatforms({ http }),
          createClipsPlatform({ http }),
          createPartsPlatform({ http }),
        ],
      },
    });
  });
  afterAll(async () => {
    await Promise.all([tt.close(), clips.close(), parts.close(), t.close()]);
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
    // Three real platforms from the registry, then the made-up ones.
    expect(builtInPlatforms({ http: t.ctx.adapters.http }).map((p) => p.id)).toEqual(['tiktok', 'bluesky', 'reddit']);
    expect(list.map((p) => [p.id, p.name, p.separateSound])).toEqual([
      ['tiktok', 'TikTok', true],
      ['bluesky', 'Bluesky', false],
      ['reddit', 'Reddit', true],
      ['clips', 'Clips', true],
      ['parts', 'Parts', true],
    ]);
    const clipLink = 'https://clips.example/v/abcd1234';
    expect(platformOfLink(clipLink, list)?.id).toBe('clips');
    expect(platformOfLink(list[2].example, list)?.id).toBe('reddit');
    expect(platformOfLink(list[3].example, list)?.id).toBe('clips');
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
        'Please provide a valid TikTok or Bluesky or Reddit or Clips or Parts URL',
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

  describe('a platform whose every file is split', () => {
    const whole = toneMp4(4, { faststart: true });
    const small = toneMp4(4, { faststart: true, size: '160x284' });
    /** The streams of a saved file: its video size and whether it has sound, and its length. */
    const streamsOf = (file: string) => {
      const j = JSON.parse(
        execFileSync(FFPROBE, ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', file], {
          encoding: 'utf8',
        }),
      );
      const v = j.streams.find((s: { codec_type: string }) => s.codec_type === 'video');
      return {
        video: v ? `${v.width}x${v.height}` : null,
        sound: j.streams.some((s: { codec_type: string }) => s.codec_type === 'audio'),
        duration: Number(j.format.duration),
      };
    };
    const save = async (res: Response, name: string) => {
      const file = path.join(tmp, name);
      fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
      return file;
    };
    const partsServed = (id: string) => parts.served.filter((p) => p.startsWith(`/${id}/`));

    it('offers its files under their own labels and downloads the default one joined with its sound', async () => {
      const url = parts.add({ id: 'sp000001', files: [whole, small], cover: sampleJpeg(), seconds: 4 });
      const info = await (await t.client().post('/api/video/info', { url })).json();
      expect(
        info.downloadOptions.map((o: { quality: string; resolution: string }) => [o.quality, o.resolution]),
      ).toEqual([
        ['big', '320x568'],
        ['small', '160x284'],
      ]);
      const c = await t.signUp();
      // The client's default label names no file here: it means the platform's best file.
      const res = await c.post('/api/video/download', { url, quality: 'hd' });
      expect(res.status).toBe(200);
      expect(attachmentName(res)).toBe('parts-partsmaker-sp000001.mp4');
      expect(streamsOf(await save(res, 'split-default.mp4'))).toMatchObject({ video: '320x568', sound: true });
      const smaller = await c.post('/api/video/download', { url, quality: 'small' });
      expect(streamsOf(await save(smaller, 'split-small.mp4'))).toMatchObject({ video: '160x284', sound: true });
      await expect.poll(async () => (await t.ctx.repos.users.findById(c.userId))!.downloadCount).toBe(2);
    });

    it('joins batch items with their sound', async () => {
      const pro = await t.signUp({ pro: true });
      const url = parts.add({ id: 'sp000002', files: [whole], cover: sampleJpeg(), seconds: 4, firstSoundGone: true });
      const created = await (await pro.post('/api/batch', { urls: [url] })).json();
      const view = async () => (await pro.get(`/api/batch/${created.id}`)).json();
      await expect.poll(async () => (await view()).status, { timeout: 30_000 }).toBe('done');
      const zip = await fetch(t.baseUrl + (await view()).downloadUrl);
      const [entry] = await zipEntries(Buffer.from(await zip.arrayBuffer()));
      expect(entry.name).toBe('parts-partsmaker-sp000002.mp4');
      const file = path.join(tmp, 'batch-split.mp4');
      fs.writeFileSync(file, entry.bytes);
      expect(streamsOf(file)).toMatchObject({ video: '320x568', sound: true });
    });

    it('previews with sound, for Pro (the joined file) and as the free clip', async () => {
      const url = parts.add({ id: 'sp000003', files: [whole, small], cover: sampleJpeg(), seconds: 4 });
      for (const who of [await t.signUp({ pro: true }), await t.signUp()]) {
        const { videoUrl } = await (await who.post('/api/video/info', { url })).json();
        const first = await who.get(videoUrl);
        expect(first.status).toBe(302);
        const res = await fetch(new URL(first.headers.get('location')!, t.baseUrl));
        expect(res.status).toBe(200);
        // The lightest rendition, with its sound from the separate file.
        expect(streamsOf(await save(res, 'split-preview.mp4'))).toMatchObject({ video: '160x284', sound: true });
      }
    });

    it('extracts the MP3 and captions from the sound file alone, never fetching the video; the studio joins both', async () => {
      const pro = await t.signUp({ pro: true });
      const url = parts.add({ id: 'sp000004', files: [whole], cover: sampleJpeg(), seconds: 4, firstSoundGone: true });
      const audio = await pro.post('/api/audio/extract', { url });
      expect(audio.status).toBe(200);
      const mp3 = await save(await fetch(t.baseUrl + (await audio.json()).audioUrl), 'split.mp3');
      expect(Math.abs(ffprobe(mp3).duration - 4)).toBeLessThan(0.2);

      const words = 'the quick brown fox jumps over the lazy dog';
      const spoken = parts.add({ id: 'sp000005', files: [speechMp4([words])], cover: sampleJpeg(), seconds: 3 });
      const captions = await pro.post('/api/transcription/generate', { url: spoken });
      expect(captions.status).toBe(200);
      expect(wordErrorRate(words, (await captions.json()).fullText)).toBeLessThan(0.35);
      for (const id of ['sp000004', 'sp000005']) expect(partsServed(id).filter((p) => /video-/.test(p))).toEqual([]);

      // The caption studio needs the picture too: its source is the two parts joined once.
      const project = await pro.post('/api/caption-projects', { source: { kind: 'link', url: spoken } });
      expect(project.status).toBe(201);
      const { id, width, height } = await project.json();
      expect([width, height]).toEqual([320, 240]);
      const source = await save(await pro.get(`/api/caption-projects/${id}/media`), 'studio-source.mp4');
      expect(streamsOf(source)).toMatchObject({ video: '320x240', sound: true });
    }, 180_000);
  });
});

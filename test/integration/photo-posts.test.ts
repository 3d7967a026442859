// Photo posts (issue 20): the slides through our own endpoint byte for byte, every slide as one ZIP
// (01.jpg, 02.jpg…), and a slideshow MP4 over the post's sound, checked with ffprobe and sampled
// frames; both kept in the media store, one quota slot each, released on any failure.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { solidJpeg, toneMp3 } from '../fakes/tiktok/photo.js';
import { FFMPEG, FFPROBE } from '../fakes/media-samples.js';
import { zipEntries } from '../helpers/zip.js';
import { attachmentName } from '../helpers/attachment-name.js';

const unzip = async (file: string) => zipEntries(fs.readFileSync(file));

/** The mean colour (r, g, b) of a crop of the frame at `seconds`. */
function colourAt(file: string, seconds: number, crop = 'crop=200:200'): number[] {
  const raw = execFileSync(FFMPEG, [
    '-v',
    'error',
    '-ss',
    String(seconds),
    '-i',
    file,
    '-frames:v',
    '1',
    '-vf',
    `${crop},scale=1:1`,
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-',
  ]);
  return [...raw.subarray(0, 3)];
}

function probe(file: string) {
  const out = JSON.parse(
    execFileSync(FFPROBE, ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file], { encoding: 'utf8' }),
  );
  return {
    streams: out.streams as Array<{ codec_type: string; codec_name: string; width?: number; height?: number }>,
    duration: Number(out.format.duration),
  };
}

describe.each(DB_KINDS)('photo posts (%s)', (db) => {
  let tt: FakeTikTok;
  let t: TestApp;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-photos-'));
  // Red portrait 3:4, green tall 9:16, blue landscape: the frame is 1080x1920, the others letterboxed.
  const slides = () => [
    solidJpeg('ff0000', 1080, 1440),
    solidJpeg('00c000', 1080, 1920),
    solidJpeg('0000ff', 1280, 720),
  ];
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
  const count = async (userId: string) => (await t.ctx.repos.users.findById(userId))!;

  it('answers mediaType photo with the slides as our own links, served byte for byte', async () => {
    const p = tt.addPhotoPost({ slides: slides() });
    const info = await (await t.client().post('/api/video/info', { url: p.url })).json();
    expect(info.mediaType).toBe('photo');
    expect(info.images).toEqual([
      { url: `/api/video/image/${p.id}/1`, width: 1080, height: 1440 },
      { url: `/api/video/image/${p.id}/2`, width: 1080, height: 1920 },
      { url: `/api/video/image/${p.id}/3`, width: 1280, height: 720 },
    ]);
    expect(info.downloadOptions.map((o: { quality: string; resolution: string }) => [o.quality, o.resolution])).toEqual(
      [
        ['images', '1080x1440'],
        ['slideshow', '1080x1920'],
        ['sound', 'Audio'], // the post's music as TikTok stores it (issue 28)
      ],
    );
    const slide = await t.client().get(`/api/video/image/${p.id}/2?download=1`);
    expect(slide.status).toBe(200);
    expect(slide.headers.get('content-type')).toBe('image/jpeg');
    expect(attachmentName(slide)).toBe(`tiktok-fakephotographer-${p.id}-02.jpg`);
    expect(Buffer.from(await slide.arrayBuffer()).equals(fs.readFileSync(p.slides[1]))).toBe(true);
    const none = await t.client().get(`/api/video/image/${p.id}/4`);
    expect([none.status, (await none.json()).code]).toEqual([404, 'video.no_slide']);
    const bad = await t.client().get(`/api/video/image/${p.id}/0`);
    expect(bad.status).toBe(400);
    // A video is not a photo post.
    const v = tt.addVideo();
    expect((await (await t.client().post('/api/video/info', { url: v.url })).json()).mediaType).toBe('video');
  });

  it('sends every slide in order as one ZIP, one slot; the second time from the store', async () => {
    const p = tt.addPhotoPost({ slides: slides() });
    const c = await t.signUp();
    const res = await c.post('/api/video/download', { url: p.url, quality: 'images' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(attachmentName(res)).toBe(`tiktok-fakephotographer-${p.id}-photos.zip`);
    const length = Number(res.headers.get('content-length'));
    const file = await save(res, 'slides.zip');
    expect(fs.statSync(file).size).toBe(length);
    const entries = await unzip(file);
    expect(entries.map((e) => e.name)).toEqual(['01.jpg', '02.jpg', '03.jpg']);
    for (const [i, e] of entries.entries()) expect(e.bytes.equals(fs.readFileSync(p.slides[i]))).toBe(true);
    expect(entries.every((e) => e.method === 0)).toBe(true); // stored
    await expect.poll(async () => (await count(c.userId)).downloadCount).toBe(1);

    const transfers = tt.transfers.length;
    const again = await c.post('/api/video/download', { url: p.url, quality: 'images' });
    expect(Buffer.from(await again.arrayBuffer()).equals(fs.readFileSync(file))).toBe(true);
    expect(tt.transfers.length).toBe(transfers);
    await expect.poll(async () => (await count(c.userId)).downloadCount).toBe(2);
    expect((await c.get('/api/downloads/recent').then((r) => r.json()))[0]).toMatchObject({
      videoId: p.id,
      quality: 'images',
    });
  });

  it('renders the slideshow: H.264 + AAC, 1080 wide, as long as the sound, each slide an equal share, in order, letterboxed', async () => {
    const p = tt.addPhotoPost({ slides: slides(), sound: toneMp3(6) });
    const c = await t.signUp();
    const res = await c.post('/api/video/download', { url: p.url, quality: 'slideshow' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(attachmentName(res)).toMatch(/-slideshow\.mp4$/);
    const file = await save(res, 'show.mp4');
    expect(fs.statSync(file).size).toBe(Number(res.headers.get('content-length')));
    const info = probe(file);
    const video = info.streams.find((s) => s.codec_type === 'video')!;
    expect([video.codec_name, video.width, video.height]).toEqual(['h264', 1080, 1920]);
    expect(info.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    expect(info.duration).toBeGreaterThan(5.8);
    expect(info.duration).toBeLessThan(6.3);
    // Two seconds each, in order: red, green, blue (each channel clearly the dominant one).
    const dominant = (rgb: number[]) => rgb.indexOf(Math.max(...rgb));
    expect([1, 3, 5].map((s) => dominant(colourAt(file, s)))).toEqual([0, 1, 2]);
    // Not stretched: the 3:4 red slide has black bars above and below, the 9:16 green one none.
    expect(Math.max(...colourAt(file, 1, 'crop=1080:100:0:0'))).toBeLessThan(30);
    expect(colourAt(file, 3, 'crop=1080:100:0:0')[1]).toBeGreaterThan(150);
    await expect.poll(async () => (await count(c.userId)).downloadCount).toBe(1);
  });

  it('makes a one-slide post and a post without sound too', async () => {
    const one = tt.addPhotoPost({ slides: [solidJpeg('ff0000', 1080, 1440)], sound: toneMp3(4) });
    const pro = await t.signUp({ pro: true });
    const show = await save(await pro.post('/api/video/download', { url: one.url, quality: 'slideshow' }), 'one.mp4');
    const p1 = probe(show);
    expect(p1.streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 1080, height: 1440 });
    expect(p1.duration).toBeGreaterThan(3.8);
    expect(
      (
        await unzip(await save(await pro.post('/api/video/download', { url: one.url, quality: 'images' }), 'one.zip'))
      ).map((e) => e.name),
    ).toEqual(['01.jpg']);
    const silent = tt.addPhotoPost({ slides: slides(), sound: null });
    const p2 = probe(
      await save(await pro.post('/api/video/download', { url: silent.url, quality: 'slideshow' }), 'silent.mp4'),
    );
    expect(p2.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);
    expect(p2.duration).toBeGreaterThan(8.8); // three slides, three seconds each
  });

  it('refuses a slide TikTok will not send with a clear 424 and gives the slot back', async () => {
    const p = tt.addPhotoPost({ slides: slides(), missing: [2] });
    const c = await t.signUp();
    for (const quality of ['images', 'slideshow']) {
      const res = await c.post('/api/video/download', { url: p.url, quality });
      expect(res.status).toBe(424);
      expect(await res.json()).toMatchObject({
        code: 'upstream.unavailable',
        message: expect.stringContaining('slide 2'),
      });
    }
    const user = await count(c.userId);
    expect([user.downloadCount, user.downloadsReserved]).toEqual([0, 0]);
    const wrong = await c.post('/api/video/download', { url: p.url, quality: 'sd' });
    expect([wrong.status, (await wrong.json()).code]).toEqual([400, 'video.quality_unavailable']);
  });

  it('kills ffmpeg, removes temp files and gives the slot back when the client leaves mid-render', async () => {
    // Ten slides over 60 s of sound: the render runs for seconds after the files arrived.
    const p = tt.addPhotoPost({ slides: Array.from({ length: 10 }, (_, i) => slides()[i % 3]), sound: toneMp3(60) });
    const c = await t.signUp();
    const ac = new AbortController();
    const pending = fetch(`${t.baseUrl}/api/video/download`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: t.baseUrl,
        cookie: [...c.cookies].map(([k, val]) => `${k}=${val}`).join('; '),
      },
      body: JSON.stringify({ url: p.url, quality: 'slideshow' }),
      signal: ac.signal,
    }).catch((e: unknown) => e);
    const jobs = path.join(t.ctx.config.DATA_DIR, 'tmp', 'media');
    const rendering = () =>
      execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
        .split('\n')
        .filter((l) => l.includes(jobs) && l.includes('slideshow.mp4'));
    await expect.poll(rendering, { timeout: 20_000, interval: 50 }).toHaveLength(1);
    ac.abort();
    expect(await pending).toBeInstanceOf(Error);
    await expect.poll(rendering, { timeout: 10_000 }).toHaveLength(0);
    await expect.poll(() => (fs.existsSync(jobs) ? fs.readdirSync(jobs) : []), { timeout: 10_000 }).toEqual([]);
    await expect.poll(async () => (await count(c.userId)).downloadsReserved, { timeout: 10_000 }).toBe(0);
    expect((await count(c.userId)).downloadCount).toBe(0);
    expect(await t.ctx.repos.mediaResults.findFresh(`slideshow:${p.id}`)).toBeUndefined();
  });

  it("extracts a photo post's sound as MP3", async () => {
    const p = tt.addPhotoPost({ slides: slides(), sound: toneMp3(4) });
    const pro = await t.signUp({ pro: true });
    const res = await pro.post('/api/audio/extract', { url: p.url });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ duration: expect.any(Number) });
  });
});

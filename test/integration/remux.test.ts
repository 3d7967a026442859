// True 1080p/720p with sound (issue 20): TikTok's HEVC video-only gears remuxed with the best
// sound track, checked with ffprobe on the files the product returns; cached per video and gear;
// falling back (never to a silent file) when a gear or a track is gone; quota as for any download.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { aacSound, FFPROBE, hevcVideoOnly } from '../fakes/media-samples.js';
import { attachmentName } from '../helpers/attachment-name.js';

interface Stream {
  codec_type: string;
  codec_name: string;
  codec_tag_string: string;
  width?: number;
  height?: number;
}
function probe(file: string): { streams: Stream[]; duration: number; faststart: boolean; fragmented: boolean } {
  const out = JSON.parse(
    execFileSync(FFPROBE, ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file], { encoding: 'utf8' }),
  );
  const head = fs
    .readFileSync(file)
    .subarray(0, 64 * 1024)
    .toString('latin1');
  return {
    streams: out.streams,
    duration: Number(out.format.duration),
    faststart: head.indexOf('moov') >= 0 && head.indexOf('moov') < head.indexOf('mdat'),
    fragmented: head.indexOf('moof') >= 0,
  };
}

describe.each(DB_KINDS)('1080p and 720p with sound (%s)', (db) => {
  let tt: FakeTikTok;
  let t: TestApp;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-remux-'));
  const gears = () => ({ '1080p': hevcVideoOnly(1080, 1920, 3), '720p': hevcVideoOnly(720, 1280, 3) });
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

  it('offers 1080p and 720p HEVC besides the H.264 files, with the codec on each option', async () => {
    const v = tt.addVideo({ hevc: { gears: gears(), sounds: [aacSound(3)] } });
    const info = await (await t.client().post('/api/video/info', { url: v.url })).json();
    expect(
      info.downloadOptions.map((o: { quality: string; codec: string; resolution: string }) => [
        o.quality,
        o.codec,
        o.resolution,
      ]),
    ).toEqual([
      ['1080p', 'hevc', '1080x1920'],
      ['720p', 'hevc', '720x1280'],
      ['hd', 'h264', '576x1024'],
      ['sd', 'h264', '576x1024'],
      ['sound', undefined, 'Audio'],
    ]);
  });

  it(
    'streams 1080p while it is made: a fragmented MP4, HEVC tagged hvc1 at 1080x1920 with AAC sound, full length, ' +
      'its expected size announced apart from Content-Length; the second time from the store, faststart, with its exact Content-Length',
    async () => {
      const v = tt.addVideo({ hevc: { gears: gears(), sounds: [aacSound(3)] } });
      const c = await t.signUp();
      const res = await c.post('/api/video/download', { url: v.url, quality: '1080p' });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-video-quality')).toBe('1080p');
      expect(attachmentName(res)).toMatch(/-1080p\.mp4$/);
      // Made while sent: no exact length is claimed, the parts' sizes are announced for the progress bar.
      expect(res.headers.get('content-length')).toBeNull();
      const expected = Number(res.headers.get('x-expected-length'));
      const file = await save(res, 'a.mp4');
      const size = fs.statSync(file).size;
      expect(Math.abs(size - expected) / size).toBeLessThan(0.05);
      const check = (p: ReturnType<typeof probe>) => {
        const video = p.streams.find((s) => s.codec_type === 'video')!;
        expect([video.codec_name, video.codec_tag_string, video.width, video.height]).toEqual([
          'hevc',
          'hvc1',
          1080,
          1920,
        ]);
        expect(p.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
        expect(p.duration).toBeGreaterThan(2.8);
      };
      const first = probe(file);
      check(first);
      expect(first.fragmented).toBe(true);
      // Both parts came with the page's cookies (the CDN refuses them otherwise); the file costs one slot.
      await expect.poll(async () => (await t.ctx.repos.users.findById(c.userId))!.downloadCount).toBe(1);

      // The stored copy is rewritten with its index first once the stream ended (decision 0073).
      await expect.poll(async () => !!(await t.ctx.repos.mediaResults.findFresh(`remux:${v.id}:1080p`))).toBe(true);
      const transfers = tt.transfers.length;
      const again = await c.post('/api/video/download', { url: v.url, quality: '1080p' });
      const length = Number(again.headers.get('content-length'));
      const second = await save(again, 'a2.mp4');
      expect(fs.statSync(second).size).toBe(length);
      const p2 = probe(second);
      check(p2);
      expect([p2.faststart, p2.fragmented]).toEqual([true, false]);
      expect(tt.transfers.length).toBe(transfers); // no CDN traffic, no remux
      await expect.poll(async () => (await t.ctx.repos.users.findById(c.userId))!.downloadCount).toBe(2);
    },
  );

  it.each([
    ['gear', { cutGearsAfterBytes: 600_000 }],
    // The sound paced slower than the picture, so that it breaks off after the file began.
    ['sound', { cutSoundsAfterBytes: 20_000, soundBytesPerSecond: 8_000 }],
  ])(
    'a %s cut midway, after the file began, ends the response as an error: never a short file, nothing stored, the slot back',
    async (_part, cut) => {
      const c = await t.signUp();
      // Paced so that the response has begun when the part breaks off.
      // A DASH sound track (index first) is read as it arrives, like the gear.
      const sounds = [aacSound(3, 660, { dash: true })];
      const v = tt.addVideo({ hevc: { gears: gears(), sounds, ...cut }, bytesPerSecond: 400_000 });
      const res = await c.post('/api/video/download', { url: v.url, quality: '1080p' });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-video-quality')).toBe('1080p');
      expect(res.headers.get('content-length')).toBeNull();
      await expect(res.arrayBuffer()).rejects.toThrow();
      await expect
        .poll(async () => (await t.ctx.repos.users.findById(c.userId))!.downloadsReserved, { timeout: 10_000 })
        .toBe(0);
      expect((await t.ctx.repos.users.findById(c.userId))!.downloadCount).toBe(0);
      expect(await t.ctx.repos.mediaResults.findFresh(`remux:${v.id}:1080p`)).toBeUndefined();
    },
  );

  it('shares one remux between simultaneous requests', async () => {
    const v = tt.addVideo({ hevc: { gears: gears(), sounds: [aacSound(3)] } });
    const pro = await t.signUp({ pro: true });
    const before = tt.transfers.length;
    const [a, b] = await Promise.all(
      [0, 1].map(() => pro.post('/api/video/download', { url: v.url, quality: '720p' })),
    );
    // Both read the one file being made (or, if it ended first, its stored copy): the same streams.
    const [pa, pb] = [probe(await save(a, 'share-a.mp4')), probe(await save(b, 'share-b.mp4'))];
    expect(pb.streams.map((s) => [s.codec_name, s.width])).toEqual(pa.streams.map((s) => [s.codec_name, s.width]));
    expect(Math.abs(pa.duration - pb.duration)).toBeLessThan(0.1);
    expect(tt.transfers.length - before).toBe(2); // one video gear and one sound track
  });

  it('falls back to the next sound track, then to 720p, then to H.264: never a silent file', async () => {
    const c = await t.signUp({ pro: true });
    const firstSoundGone = tt.addVideo({ hevc: { gears: gears(), sounds: [null, aacSound(3)] } });
    const r1 = await c.post('/api/video/download', { url: firstSoundGone.url, quality: '1080p' });
    expect(r1.headers.get('x-video-quality')).toBe('1080p');
    expect(
      probe(await save(r1, 'b.mp4'))
        .streams.map((s) => s.codec_type)
        .sort(),
    ).toEqual(['audio', 'video']);

    const gearGone = tt.addVideo({
      hevc: { gears: { '1080p': null, '720p': hevcVideoOnly(720, 1280, 3) }, sounds: [aacSound(3)] },
    });
    const r2 = await c.post('/api/video/download', { url: gearGone.url, quality: '1080p' });
    expect(r2.headers.get('x-video-quality')).toBe('720p');
    expect(probe(await save(r2, 'c.mp4')).streams.find((s) => s.codec_type === 'video')?.height).toBe(1280);

    const noSound = tt.addVideo({ hevc: { gears: gears(), sounds: [null] } });
    const r3 = await c.post('/api/video/download', { url: noSound.url, quality: '1080p' });
    expect(r3.status).toBe(200);
    expect(r3.headers.get('x-video-quality')).toBe('hd');
    const h264 = probe(await save(r3, 'd.mp4'));
    expect(h264.streams.find((s) => s.codec_type === 'video')?.codec_name).toBe('h264');
    expect(h264.streams.some((s) => s.codec_type === 'audio')).toBe(true);
  });

  it('remuxes a gear with its index at the end as well as a DASH one, and falls back from a gear cut in its head', async () => {
    const c = await t.signUp({ pro: true });
    const plain = tt.addVideo({
      hevc: {
        gears: { '1080p': hevcVideoOnly(1080, 1920, 3, { indexLast: true }), '720p': null },
        sounds: [aacSound(3)],
      },
    });
    const r1 = await c.post('/api/video/download', { url: plain.url, quality: '1080p' });
    expect(r1.headers.get('x-video-quality')).toBe('1080p');
    const p1 = probe(await save(r1, 'plain.mp4'));
    expect(p1.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'hevc']);
    expect(p1.duration).toBeGreaterThan(2.8);
    // Every HEVC gear breaks off inside its head, before ffmpeg wrote a byte: the H.264 file instead.
    const cut = tt.addVideo({ hevc: { gears: gears(), sounds: [aacSound(3)], cutGearsAfterBytes: 200 } });
    const r2 = await c.post('/api/video/download', { url: cut.url, quality: '1080p' });
    expect(r2.status).toBe(200);
    expect(r2.headers.get('x-video-quality')).toBe('hd');
    expect(probe(await save(r2, 'cut.mp4')).streams.find((s) => s.codec_type === 'video')?.codec_name).toBe('h264');
    expect(await t.ctx.repos.mediaResults.findFresh(`remux:${cut.id}:1080p`)).toBeUndefined();
  });

  it('falls back from a gear that broke in its head while its sound was still being opened', async () => {
    // The sound answers only after the gear's connection dropped: the gear's head is read once it
    // already broke (this order hung the job and the request until the test timed out, issue 38).
    const c = await t.signUp({ pro: true });
    const v = tt.addVideo({
      hevc: { gears: gears(), sounds: [aacSound(3)], cutGearsAfterBytes: 200, soundsAfterGearCut: true },
    });
    const res = await c.post('/api/video/download', { url: v.url, quality: '1080p' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-video-quality')).toBe('hd');
    expect(probe(await save(res, 'cut-first.mp4')).streams.find((s) => s.codec_type === 'video')?.codec_name).toBe(
      'h264',
    );
    expect(await t.ctx.repos.mediaResults.findFresh(`remux:${v.id}:1080p`)).toBeUndefined();
  });

  it('releases the slot when the download fails, and removes temp files and ffmpeg when the client leaves', async () => {
    const c = await t.signUp();
    // Paced so the client leaves while the parts are still arriving.
    const v = tt.addVideo({ hevc: { gears: gears(), sounds: [aacSound(3)] }, bytesPerSecond: 20_000 });
    const ac = new AbortController();
    const pending = fetch(`${t.baseUrl}/api/video/download`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: t.baseUrl,
        cookie: [...c.cookies].map(([k, val]) => `${k}=${val}`).join('; '),
      },
      body: JSON.stringify({ url: v.url, quality: '1080p' }),
      signal: ac.signal,
    }).catch((e: unknown) => e);
    await expect.poll(() => tt.transfers.some((x) => x.path.includes(`/${v.id}/`)), { timeout: 10_000 }).toBe(true);
    ac.abort();
    expect(await pending).toBeInstanceOf(Error);
    const jobs = path.join(t.ctx.config.DATA_DIR, 'tmp', 'media');
    await expect.poll(() => (fs.existsSync(jobs) ? fs.readdirSync(jobs) : []), { timeout: 10_000 }).toEqual([]);
    await expect
      .poll(async () => (await t.ctx.repos.users.findById(c.userId))!.downloadsReserved, { timeout: 10_000 })
      .toBe(0);
    expect((await t.ctx.repos.users.findById(c.userId))!.downloadCount).toBe(0);
    expect(await t.ctx.repos.mediaResults.findFresh(`remux:${v.id}:1080p`)).toBeUndefined();
    // The CDN transfers stopped too (none left running for a client who left).
    await expect
      .poll(() => tt.transfers.filter((x) => x.path.includes(`/${v.id}/`)).map((x) => x.aborted || x.completed), {
        timeout: 10_000,
      })
      .not.toContain(false);
  });
});

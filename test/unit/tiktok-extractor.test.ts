import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTikTokLink } from '../../src/server/platforms/tiktok/link.js';
import { mapItemStruct, videoOptions, audioTracks } from '../../src/server/platforms/tiktok/item-mapper.js';
import { extractScope, readVideoPage } from '../../src/server/platforms/tiktok/page-parser.js';
import { errorForStatus } from '../../src/server/platforms/tiktok/errors.js';

const FIX = path.resolve(import.meta.dirname, '../fixtures/tiktok');
const read = (f: string) => fs.readFileSync(path.join(FIX, f), 'utf8');
const html2026 = read('real_2026-09-28_video_7504044860782021930.REDUCED.html');
const deleted = read('real_2026-09-28_video_7550459646654418189_status10204_deleted.REDUCED.html');
const next2021 = JSON.parse(read('real_2021-09-11_nextjs_pageProps_6999955804216364289.json'));

describe('TikTok link pipeline', () => {
  it.each([
    ['https://www.tiktok.com/@tjrobertson52/video/7504044860782021930', '7504044860782021930', 'tjrobertson52'],
    ['https://tiktok.com/@a.b_c-d/video/1', '1', 'a.b_c-d'],
    ['https://m.tiktok.com/@user/video/123?lang=en', '123', 'user'],
    ['  https://WWW.TikTok.com./@user/video/123/?is_from_webapp=1&sender_device=pc#x  ', '123', 'user'],
    ['https://www.tiktok.com/@user/photo/7240568259186019630', '7240568259186019630', 'user'],
    ['http://www.tiktok.com/@user/video/123', '123', 'user'],
    ['https://www.tiktok.com/@/video/123', '123', ''],
    ['https://www.tiktok.com/@u/video/123456789012345678901', '123456789012345678901', 'u'],
  ])('accepts %s', (input, id, user) => {
    const link = parseTikTokLink(input);
    expect(link).toMatchObject({ kind: 'video', id, user });
    expect(link!.url).toBe(`https://www.tiktok.com/@${user || '_'}/video/${id}`);
  });

  it.each([
    ['https://vm.tiktok.com/ZTR45GpSF/', 'https://vm.tiktok.com/ZTR45GpSF/'],
    ['https://vt.tiktok.com/ZSe4FqkKd', 'https://vt.tiktok.com/ZSe4FqkKd/'],
    ['https://www.tiktok.com/t/ZTRC5xgJp?_r=1', 'https://www.tiktok.com/t/ZTRC5xgJp/'],
    ['https://tiktok.com/t/ZTRC5xgJp/', 'https://www.tiktok.com/t/ZTRC5xgJp/'],
  ])('recognises the short link %s', (input, url) => {
    expect(parseTikTokLink(input)).toMatchObject({ kind: 'short', url });
  });

  it.each([
    '',
    'tiktok',
    'www.tiktok.com/@u/video/1', // no scheme
    'ftp://www.tiktok.com/@u/video/1',
    'https://www.tiktok.com/@u/video/1234567890123456789012', // 22 digits
    'https://www.tiktok.com/@u/video/abc',
    'https://www.tiktok.com/@u',
    'https://www.tiktok.com/',
    'https://www.tiktok.com/foryou',
    'https://www.tiktok.com.evil.com/@u/video/1',
    'https://eviltiktok.com/@u/video/1',
    'https://www.tiktok.com@evil.com/@u/video/1',
    'https://user:pass@www.tiktok.com/@u/video/1',
    'https://www.tiktok.com:444/@u/video/1',
    'https://vm.tiktok.com/',
    'https://vm.tiktok.com/a/b',
    'https://tiktokv.com/share/video/1',
    'javascript:alert(1)//https://www.tiktok.com/@u/video/1',
    'https://127.0.0.1/@u/video/1',
  ])('refuses %j', (input) => {
    expect(parseTikTokLink(input)).toBeNull();
  });

  it('applies the platform-neutral steps first (shared linkShape), then its own shapes', () => {
    expect(parseTikTokLink('  HTTP://WWW.TikTok.com./@u/video/1?utm=x#frag ')).toEqual({
      kind: 'video',
      id: '1',
      user: 'u',
      url: 'https://www.tiktok.com/@u/video/1',
    });
    expect(parseTikTokLink('https://a:b@www.tiktok.com/@u/video/1')).toBeNull();
    expect(parseTikTokLink(`https://www.tiktok.com/@u/video/1?${'x'.repeat(2100)}`)).toBeNull();
  });
});

describe('page parser and itemStruct mapper (real captures)', () => {
  it('reads the 2026 page by script id and maps the Video info fields', () => {
    const page = readVideoPage(html2026);
    expect(page.ok).toBe(true);
    if (!page.ok) return;
    const v = mapItemStruct(page.item, '7504044860782021930');
    expect(v).toMatchObject({
      id: '7504044860782021930',
      author: 'tjrobertson52',
      authorName: 'TJ Robertson',
      duration: 251,
      views: 71400,
      likes: 1819,
      isPhotoPost: false,
    });
    expect(v.title.startsWith('Digital marketing will be DEAD by 2027')).toBe(true);
    expect(v.thumbnailUrl).toMatch(/^https:\/\/p1[69]-common-sign\.tiktokcdn-us\.com\//);
    expect(v.musicUrl).toMatch(/mime_type=audio_mpeg/);
    expect(v.subtitles).toEqual([expect.objectContaining({ language: 'eng-US', format: 'webvtt', source: 'ASR' })]);
  });

  it('offers the sharper HEVC gears paired with sound, then the muxed H.264 gears; never downloadAddr or aweme/v1/play', () => {
    const item = readVideoPage(html2026);
    if (!item.ok) throw new Error('fixture did not parse');
    const options = videoOptions(item.item);
    // adapt_540_1 (HEVC 576x1024) is no sharper than the H.264 file: not offered.
    expect(options.map((o) => [o.quality, o.codec, o.width, o.height, o.size])).toEqual([
      ['1080p', 'hevc', 1080, 1920, 57894323],
      ['720p', 'hevc', 720, 1280, 33377451],
      ['hd', 'h264', 576, 1024, 72143208],
      ['sd', 'h264', 576, 1024, 26194101],
    ]);
    const all = options.flatMap((o) => [...o.urls, ...(o.audio ?? []).flat()]);
    expect(all.some((u) => u.includes('/aweme/v1/play'))).toBe(false);
    expect(all).not.toContain(item.item.video.downloadAddr);
    // HEVC gears are the video-only DASH files; muxed options never are.
    expect(
      options
        .filter((o) => o.codec === 'h264')
        .flatMap((o) => o.urls)
        .some((u) => u.includes('/media-video-hvc1/')),
    ).toBe(false);
    const hd = options.find((o) => o.quality === 'hd')!;
    expect(hd.urls[0]).toBe(item.item.video.playAddr); // playAddr == normal_540_0
    expect(hd.urls[1]).toMatch(/^https:\/\/v19-webapp-prime\./); // the mirror as fallback
    // The sound: the three bitrateAudioInfo tracks, highest bitrate first, Main then Backup URL.
    const tracks = options[0].audio!;
    expect(tracks).toHaveLength(3);
    expect(
      tracks.every(
        (t) => t.length >= 1 && t.every((u) => u.includes('/media-audio-und-mp4a/') || u.startsWith('https://')),
      ),
    ).toBe(true);
    expect(audioTracks(item.item.video)).toEqual(tracks);
  });

  it('offers no HEVC option without a sound track to pair (never a silent file)', () => {
    const item = readVideoPage(html2026);
    if (!item.ok) throw new Error('fixture did not parse');
    const silent = { ...item.item, video: { ...item.item.video, bitrateAudioInfo: [] } };
    expect(videoOptions(silent).map((o) => o.quality)).toEqual(['hd', 'sd']);
  });

  it('maps the 2021 Next.js generation (numbers as ints, playAddr only)', () => {
    const v = mapItemStruct(next2021.itemInfo.itemStruct, '6999955804216364289');
    expect(v).toMatchObject({
      id: '6999955804216364289',
      author: 'i_am_doshik1',
      duration: 9,
      views: 44200000,
      likes: 3400000,
    });
    expect(v.options).toHaveLength(1);
    expect(v.options[0]).toMatchObject({ quality: 'hd', width: 540, height: 960 });
  });

  it('gives "TikTok video #<id>" for an empty description and parses numbers given as strings', () => {
    const v = mapItemStruct(
      { id: '42', desc: '  ', stats: { playCount: '1200', diggCount: '7' }, video: { duration: '5' } },
      '42',
    );
    expect(v).toMatchObject({ title: 'TikTok video #42', views: 1200, likes: 7, duration: 5, options: [] });
  });

  it('classifies the deleted capture as video.not_found, and each status code', () => {
    const page = readVideoPage(deleted);
    expect(page.ok).toBe(false);
    if (!page.ok) expect(page.error.code).toBe('video.not_found');
    expect(errorForStatus(0, '')).toBeNull();
    expect(errorForStatus(undefined, undefined)).toBeNull();
    expect(errorForStatus(10204, 'cross_border_violation_ur')?.code).toBe('video.region_blocked');
    expect(errorForStatus(10216, '')?.code).toBe('video.private');
    expect(errorForStatus(10222, '')?.code).toBe('video.private');
    expect(errorForStatus(10221, '')?.code).toBe('video.not_found');
    expect(errorForStatus(10231, '')?.code).toBe('video.region_blocked');
  });

  it('finds the script whatever the attribute order, and refuses pages without it', () => {
    const swapped = html2026.replace(
      '<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application/json">',
      '<script type="application/json" id="__UNIVERSAL_DATA_FOR_REHYDRATION__">',
    );
    expect(extractScope(swapped)?.['webapp.video-detail']).toBeTruthy();
    const none = readVideoPage('<html><p>Please wait...</p></html>');
    expect(none.ok || none.error.code).toBe('upstream.rate_limited');
    const classified = readVideoPage(
      `<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__">${JSON.stringify({
        __DEFAULT_SCOPE__: {
          'webapp.video-detail': { statusCode: 0, itemInfo: { itemStruct: { id: '1', isContentClassified: true } } },
        },
      })}</script>`,
    );
    expect(classified.ok || classified.error.code).toBe('video.age_restricted');
  });
});

// Every post variant rivals handle (issue 28), read from pages built from the documented shapes
// (test/fixtures/tiktok/constructed-*.html, each naming its source) and from the real captures.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapItemStruct } from '../../src/server/platforms/tiktok/item-mapper.js';
import { readVideoPage } from '../../src/server/platforms/tiktok/page-parser.js';
import { renewTikTokUrls } from '../../src/server/platforms/tiktok/renew-urls.js';
import { soundInHead } from '../../src/server/adapters/media/mp4-head.js';
import { hevcWhole, toneMp4 } from '../fakes/media-samples.js';

const FIX = path.resolve(import.meta.dirname, '../fixtures/tiktok');

function map(file: string) {
  const page = readVideoPage(fs.readFileSync(path.join(FIX, file), 'utf8'));
  if (!page.ok) throw page.error;
  return { item: page.item, video: mapItemStruct(page.item, '0') };
}
const summary = (o: { quality: string; codec: string; form?: string; width: number | null; height: number | null }) =>
  `${o.quality} ${o.codec} ${o.form ?? 'whole'} ${o.width}x${o.height}`;

describe('TikTok post variants', () => {
  it('real 2026 page: DASH HEVC 1080p/720p paired with the best AAC track; H.264 hd/sd whole', () => {
    const { video } = map('real_2026-09-28_video_7504044860782021930.REDUCED.html');
    expect(video.options.map(summary)).toEqual([
      '1080p hevc split 1080x1920',
      '720p hevc split 720x1280',
      'hd h264 whole 576x1024',
      'sd h264 whole 576x1024',
    ]);
    expect(video.options[0].audio?.[0][0]).toContain('media-audio-und-mp4a');
    expect(video.originalSound?.sources[0]).toMatchObject({ ext: 'm4a', from: 'track', bitrate: 97242 });
    expect(video.pictures?.avatar[0]).toMatch(/^https:\/\//);
    expect(video.pictures?.cover[0]).toMatch(/^https:\/\//);
  });

  it('older post: whole HEVC MP4 gears with their own sound, offered and served as they are', () => {
    const { video } = map('constructed-older-post-whole-hevc.html');
    expect(video.options.map(summary)).toEqual([
      '1080p hevc whole 1080x1920',
      '720p hevc whole 720x1280',
      'hd h264 whole 576x1024',
    ]);
    expect(video.options[0].audio).toBeUndefined();
    expect(video.options[0].urls.every((u) => !u.includes('www.tiktok.com'))).toBe(true);
  });

  it('two forms of one size: the better MVMAF score first, the other as its alternate', () => {
    const { video } = map('constructed-mixed-forms-mvmaf.html');
    const best = video.options[0];
    expect([best.quality, best.form, best.urls[0]]).toEqual(['1080p', 'whole', expect.stringContaining('whole1080')]);
    expect(best.alternates?.map((a) => a.form)).toEqual(['split']);
    expect(best.alternates?.[0].audio?.[0]).toHaveLength(2); // Main and Backup; the aweme fallback dropped
  });

  it('skips unknown forms and codecs (bytevc2, an HLS gear): only the H.264 file', () => {
    const { video } = map('constructed-unknown-gears.html');
    expect(video.options.map(summary)).toEqual(['hd h264 whole 576x1024']);
  });

  it('playAddr as a list of {src} (and no bitrateInfo): the H.264 file with both mirrors', () => {
    const { video } = map('constructed-playaddr-src-list.html');
    expect(video.options).toHaveLength(1);
    expect(video.options[0].urls.map((u) => new URL(u).hostname)).toEqual([
      'v16-webapp-prime.us.tiktok.com',
      'v19-webapp-prime.us.tiktok.com',
    ]);
  });

  it('playAddr as an object with a URL list, protocol-relative links, and author as a string', () => {
    const video = mapItemStruct(
      {
        id: '5',
        author: 'plainhandle',
        video: {
          width: 576,
          height: 1024,
          playAddr: { url_list: ['//v16-webapp-prime.us.tiktok.com/video/tos/x/a/?expire=1', 'http://insecure/x'] },
        },
      },
      '5',
    );
    expect(video.author).toBe('plainhandle');
    expect(video.options.map((o) => [o.quality, o.urls])).toEqual([
      ['hd', ['https://v16-webapp-prime.us.tiktok.com/video/tos/x/a/?expire=1']],
    ]);
  });

  it('the 2021 Next.js page (__NEXT_DATA__): the H.264 file as today', () => {
    const { video } = map('constructed-nextdata-2021.html');
    expect(video.id).toBe('6999955804216364289');
    expect(video.options.map((o) => o.quality)).toEqual(['hd']);
  });

  it('photo posts with and without music; an audio-only post keeps its sound', () => {
    const withMusic = map('constructed-photo-post-music.html').video;
    expect([withMusic.isPhotoPost, withMusic.images.length, withMusic.options.length]).toEqual([true, 2, 0]);
    expect(withMusic.originalSound?.sources).toEqual([expect.objectContaining({ ext: 'mp3', from: 'music' })]);
    const quiet = map('constructed-photo-post-no-music.html').video;
    expect([quiet.images.length, quiet.originalSound, quiet.musicUrl]).toEqual([1, null, null]);
    const audio = map('constructed-audio-only.html').video;
    expect([audio.isPhotoPost, audio.options.length, audio.duration]).toEqual([false, 0, 21]);
    expect(audio.originalSound?.sources).toEqual([expect.objectContaining({ ext: 'm4a', from: 'music' })]);
  });

  it('renews expired links: the same host and path in the page fetched again', () => {
    const { item } = map('constructed-older-post-whole-hevc.html');
    const fresh = JSON.parse(JSON.stringify(item).replaceAll('expire=1790802298', 'expire=1890000000'));
    const stale = [item.video.bitrateInfo[1].PlayAddr.UrlList[1]];
    expect(renewTikTokUrls(stale, fresh)).toEqual([stale[0].replace('expire=1790802298', 'expire=1890000000')]);
    expect(renewTikTokUrls(['https://v16-webapp-prime.us.tiktok.com/gone/'], fresh)).toEqual([]);
  });

  it('tells a file with a sound track from one without, from the head of a faststart MP4', () => {
    const head = (file: string) => fs.readFileSync(file).subarray(0, 256 * 1024);
    expect(soundInHead(head(hevcWhole(720, 1280, 1)))).toEqual({ complete: true, sound: true });
    expect(soundInHead(head(hevcWhole(720, 1280, 1, { silent: true })))).toEqual({ complete: true, sound: false });
    // moov at the end: the head cannot tell (the download goes on; remuxed files are checked by ffmpeg).
    expect(soundInHead(head(toneMp4(1)))).toEqual({ complete: true, sound: null });
  });
});

// Photo posts in the item mapper (docs/sources.md 'TikTok photo posts'): slides in order with the .jpeg links
// first, no video option (a photo post's playAddr is its sound), and the slideshow frame.
import { describe, expect, it } from 'vitest';
import { mapItemStruct } from '../../src/server/platforms/tiktok/item-mapper.js';
import { slideshowFrame } from '../../src/server/platforms/video-model.js';

const slide = (key: string, w: number | string, h: number | string) => ({
  imageURL: {
    urlList: [
      `https://p16-sign-va.tiktokcdn.com/${key}~tplv-photomode-image.heic?x-expires=1`,
      `https://p16-sign-va.tiktokcdn.com/${key}~tplv-photomode-image.jpeg?x-expires=1`,
      'http://insecure.example/x.jpeg?',
    ],
  },
  imageWidth: w,
  imageHeight: h,
});

describe('photo posts in the item mapper', () => {
  const item = {
    id: '7240568259186019630',
    desc: 'three slides',
    author: { uniqueId: 'chillezy' },
    imagePost: {
      images: [
        slide('a', 1080, 1440),
        slide('b', '1080', '1920'),
        { imageURL: { urlList: [] } },
        slide('c', 1280, 720),
      ],
    },
    video: { duration: 0, playAddr: 'https://v16m.tiktokcdn-us.com/music/?mime_type=audio_mpeg' },
    music: { playUrl: 'https://v16m.tiktokcdn-us.com/music/?mime_type=audio_mpeg', duration: 14 },
  };

  it('lists the usable slides in order, .jpeg links first, and offers no video file', () => {
    const v = mapItemStruct(item, item.id);
    expect(v.isPhotoPost).toBe(true);
    expect(v.options).toEqual([]);
    expect(v.duration).toBe(14);
    expect(
      v.images.map((s) => [
        s.urls[0].includes('/a~') ? 'a' : s.urls[0].includes('/b~') ? 'b' : 'c',
        s.urls[0].endsWith('.jpeg?x-expires=1'),
        s.urls.length,
        s.width,
        s.height,
      ]),
    ).toEqual([
      ['a', true, 2, 1080, 1440],
      ['b', true, 2, 1080, 1920],
      ['c', true, 2, 1280, 720],
    ]);
  });

  it('gives videos no slides', () => {
    expect(mapItemStruct({ id: '1', video: { playAddr: 'https://v16-webapp.tiktok.com/v.mp4' } }, '1').images).toEqual(
      [],
    );
  });

  it('makes the slideshow 1080 wide, as tall as the tallest slide needs, never past 9:16', () => {
    const s = (width: number | null, height: number | null) => ({ urls: ['x'], width, height });
    expect(slideshowFrame([s(1080, 1440)])).toEqual({ width: 1080, height: 1440 });
    expect(slideshowFrame([s(1080, 1440), s(720, 1280), s(1280, 720)])).toEqual({ width: 1080, height: 1920 });
    expect(slideshowFrame([s(1280, 720)])).toEqual({ width: 1080, height: 608 });
    expect(slideshowFrame([s(500, 5000)])).toEqual({ width: 1080, height: 1920 });
    expect(slideshowFrame([s(null, null)])).toEqual({ width: 1080, height: 1920 });
  });
});

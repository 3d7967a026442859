// The client's link rule is the server's (issue 30): each platform's `linkPattern`, as GET
// /api/platforms sends it, accepts exactly the links its `parseLink` accepts, and the client's
// helpers find those links in shared text.
import { describe, expect, it } from 'vitest';
import type { PlatformInfo } from '../../src/shared/contracts/platforms';
import { allLinks, extractLink, linkShape, platformNames, platformOfLink } from '../../src/shared/platform-links';
import { builtInPlatforms } from '../../src/server/platforms/registry';
import type { Platform } from '../../src/server/platforms/platform';
import type { HttpClient } from '../../src/server/adapters/http/index';
import { createClipsPlatform } from '../fakes/clips/clips.platform';

const http = {} as HttpClient; // parseLink and the pattern never make a request
const [builtIn, bluesky] = builtInPlatforms({ http });
const clips = createClipsPlatform({ http });
const info = (p: Platform): PlatformInfo => ({
  id: p.id,
  name: p.name,
  example: p.exampleUrl,
  linkPattern: p.linkPattern.source,
  separateSound: p.separateSound !== false,
});
const both = [info(builtIn), info(clips)];

// Links of every shape the two platforms meet: accepted, tracked, odd-cased, hostile and foreign.
const CORPUS = [
  'https://www.tiktok.com/@tjrobertson52/video/7504044860782021930',
  'https://tiktok.com/@a.b_c-d/video/1',
  'https://m.tiktok.com/@user/video/123?lang=en',
  '  https://WWW.TikTok.com./@user/video/123/?is_from_webapp=1&sender_device=pc#x  ',
  'https://www.tiktok.com/@user/photo/7240568259186019630',
  'http://www.tiktok.com/@user/video/123',
  'https://www.tiktok.com/@/video/123',
  'https://www.tiktok.com/@u/video/123456789012345678901',
  'https://vm.tiktok.com/ZTR45GpSF/',
  'https://vt.tiktok.com/ZSe4FqkKd',
  'https://www.tiktok.com/t/ZTRC5xgJp?_r=1',
  'https://tiktok.com/t/ZTRC5xgJp/',
  '',
  'tiktok',
  'www.tiktok.com/@u/video/1',
  'ftp://www.tiktok.com/@u/video/1',
  'https://www.tiktok.com/@u/video/1234567890123456789012',
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
  `https://www.tiktok.com/@u/video/1?${'x'.repeat(3000)}`,
  'https://clips.example/v/abcd1234',
  'https://clips.example/v/abcd1234/?ref=share',
  'https://CLIPS.example/s/xyz',
  'http://clips.example/v/abcd1234',
  'https://clips.example/u/someone',
  'https://clips.example/v/ABCD',
  'https://bsky.app/profile/kamhoyung.bsky.social/post/3lhnr2o6kb22h',
  'https://bsky.app/profile/did:plc:l7mosai5i2u562b5qbosw6c7/post/3lhnr2o6kb22h',
  'https://bsky.app/profile/did%3Aplc%3Al7mosai5i2u562b5qbosw6c7/post/3lhnr2o6kb22h/',
  'https://BSKY.app/profile/Kamhoyung.Bsky.Social/post/3lhnr2o6kb22h?ref_src=embed',
  'https://www.bsky.app/profile/did:web:creator.example.com/post/3lhnr2o6kb22h',
  'https://bsky.app/profile/did:PLC:L7MOSAI5I2U562B5QBOSW6C7/post/3lhnr2o6kb22h',
  'https://bsky.app/profile/did:web:localhost%3A8080/post/3lhnr2o6kb22h',
  'https://bsky.app/profile/did:web:nodot/post/3lhnr2o6kb22h',
  `https://bsky.app/profile/did:web:${'a'.repeat(60)}.${'b'.repeat(30)}.com/post/3lhnr2o6kb22h`,
  'https://bsky.app/profile/did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK/post/3lhnr2o6kb22h',
  'https://bsky.app/profile/did:plc:short/post/3lhnr2o6kb22h',
  'https://bsky.app/profile/kamhoyung.bsky.social/post/3LHNR2O6KB22H',
  'https://bsky.app/profile/kamhoyung.bsky.social/post/3lhnr2o6kb22',
  'https://bsky.app/profile/kamhoyung.bsky.social/post/3lhnr2o6kb22h/likes',
  'https://bsky.app/profile/kamhoyung.bsky.social',
  'https://bsky.app/profile/nodot/post/3lhnr2o6kb22h',
  'https://bsky.app/profile/-bad-.bsky.social/post/3lhnr2o6kb22h',
  'https://bsky.app/profile/a%2eb.com/post/3lhnr2o6kb22h',
  'https://bsky.app:444/profile/a.b.com/post/3lhnr2o6kb22h',
  'https://bsky.app.evil.com/profile/a.b.com/post/3lhnr2o6kb22h',
  'https://staging.bsky.app/profile/a.b.com/post/3lhnr2o6kb22h',
  'at://did:plc:l7mosai5i2u562b5qbosw6c7/app.bsky.feed.post/3lhnr2o6kb22h',
  'https://www.instagram.com/reel/abc/',
  'https://example.com/x',
];

describe('the client link rule from GET /api/platforms', () => {
  it.each([builtIn, bluesky, clips])("accepts exactly what %s's parseLink accepts", (platform) => {
    for (const link of CORPUS) {
      expect(platformOfLink(link, [info(platform)]) !== null, JSON.stringify(link)).toBe(
        platform.parseLink(link) !== null,
      );
    }
  });

  it('names the platform of a link among several, and the platforms in a sentence', () => {
    expect(platformOfLink('https://clips.example/v/abcd1234', both)?.id).toBe('clips');
    expect(platformOfLink(builtIn.exampleUrl, both)?.id).toBe(builtIn.id);
    expect(platformOfLink(clips.exampleUrl, both)?.id).toBe('clips');
    expect(platformNames(both)).toBe(`${builtIn.name} or Clips`);
    const all = [info(builtIn), info(bluesky), info(clips)];
    expect(platformOfLink(bluesky.exampleUrl, all)?.id).toBe('bluesky');
    expect(
      platformOfLink('https://bsky.app/profile/did:plc:l7mosai5i2u562b5qbosw6c7/post/3lhnr2o6kb22h', all)?.id,
    ).toBe('bluesky');
    expect(linkShape('  HTTPS://Clips.Example./v/abcd1234?x=1#y ')).toBe('https://clips.example/v/abcd1234');
  });

  it('finds the first link inside shared text, without trailing punctuation', () => {
    const short = 'https://vm.tiktok.com/ZMabc123/';
    expect(extractLink(`Check out this video by @a! ${short} #fyp`, both)).toBe(short);
    expect(extractLink(`${builtIn.exampleUrl}.`, both)).toBe(builtIn.exampleUrl);
    expect(extractLink('see https://example.com/x and https://clips.example/s/abc!', both)).toBe(
      'https://clips.example/s/abc',
    );
    expect(extractLink('no link here', both)).toBeNull();
    expect(extractLink(undefined, both)).toBeNull();
    expect(extractLink('https://clips.example/v/abcd1234', [info(builtIn)])).toBeNull();
    expect(allLinks(`a ${clips.exampleUrl}\nb https://example.com/x, ${builtIn.exampleUrl}, c`, both)).toEqual([
      clips.exampleUrl,
      builtIn.exampleUrl,
    ]);
  });
});

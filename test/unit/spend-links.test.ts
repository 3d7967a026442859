// The keys on spending links (lib/spend-links.ts, decision 0082): bound to one person, one path and
// its parameters whatever their order or spelling, and to a time.
import { describe, expect, it } from 'vitest';
import { createSpendLinks, SPEND_KEY_TTL_MS } from '../../src/server/lib/spend-links.js';

const SECRET = 'unit-secret-unit-secret-unit-secret-01';
const LINK = '/api/video/download?url=https%3A%2F%2Fwww.tiktok.com%2F%40a%2Fvideo%2F1&quality=hd';

describe('spend links', () => {
  it('a key checks for its person and link, in any order or spelling of the same parameters', () => {
    const links = createSpendLinks(SECRET);
    const keyed = links.sign('u1', LINK);
    expect(keyed).toMatch(/^\/api\/video\/download\?url=.+&quality=hd&t=\d+\.[\w-]{43}$/);
    const key = /&(t=[^&]+)$/.exec(keyed)![1];
    expect(links.check('u1', keyed)).toBe('ok');
    expect(links.check('u1', `/api/video/download?${key}&quality=hd&url=https://www.tiktok.com/@a/video/1`)).toBe('ok');
    expect(
      links.check('u1', `/api/%76ideo/download?quality=hd&url=https%3A%2F%2Fwww.tiktok.com%2F%40a%2Fvideo%2F1&${key}`),
    ).toBe('ok');
    expect(links.check('u2', keyed)).toBe('invalid');
    expect(links.check('u1', keyed.replace('quality=hd', 'quality=sd'))).toBe('invalid');
    expect(links.check('u1', `${keyed}&quality=sd`)).toBe('invalid'); // a parameter added
    expect(links.check('u1', keyed.replace('/download', '/stream/1'))).toBe('invalid');
    expect(links.check('u1', LINK)).toBe('missing');
    expect(links.check('u1', `${LINK}&t=junk`)).toBe('invalid');
    expect(createSpendLinks('another-secret-another-secret-000000').check('u1', keyed)).toBe('invalid');
  });

  it('expires after its time; signing again replaces the old key', () => {
    let now = Date.now();
    const links = createSpendLinks(SECRET, () => now);
    const keyed = links.sign('u1', LINK);
    now += SPEND_KEY_TTL_MS - 1000;
    expect(links.check('u1', keyed)).toBe('ok');
    now += 2000;
    expect(links.check('u1', keyed)).toBe('expired');
    const again = links.sign('u1', keyed);
    expect(again.match(/[?&]t=/g)).toHaveLength(1);
    expect(links.check('u1', again)).toBe('ok');
    expect(links.sign('u1', '/api/video/stream/7?platform=x')).toMatch(/^\/api\/video\/stream\/7\?platform=x&t=/);
    expect(links.sign('u1', '/api/video/stream/7')).toMatch(/^\/api\/video\/stream\/7\?t=/);
  });
});

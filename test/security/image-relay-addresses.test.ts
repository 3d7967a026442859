// The image relay (GET /api/images) and every form an address can take in a blog post's picture
// (issue 34): bracketed IPv6 answered 500 before; each form is now a 4xx in the error envelope.
// The relay signs links itself, so the test asks it for the link a post would carry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { relayOnly, relaySigner } from '../../src/server/services/image-relay.js';

const FORMS = [
  'http://[::1]/x.png',
  'http://[::1]:80/x.png',
  'http://[0:0:0:0:0:0:0:1]/x.png',
  'http://[::ffff:127.0.0.1]/x.png',
  'http://[::ffff:7f00:1]/x.png',
  'http://[fe80::1%25eth0]/x.png',
  'http://[fd00::1]/x.png',
  'http://[2001:db8::1]/x.png',
  'http://127.0.0.1/x.png',
  'http://127.1/x.png',
  'http://2130706433/x.png',
  'http://0x7f000001/x.png',
  'http://0177.0.0.1/x.png',
  'http://0/x.png',
  'http://localhost/x.png',
  'http://LOCALHOST./x.png',
  'http://169.254.169.254/latest/meta-data',
  'http://user:pass@example.com/x.png',
  'http://example.com:8080/x.png',
  'https://[::1]:443/x.png',
  'http://%5B::1%5D/x.png',
  'http://[::1/x.png',
  'http:///x.png',
];

describe('image relay address forms (memory database: the relay stores nothing)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db: 'pglite' });
  });
  afterAll(() => t.close());

  it.each(FORMS)('refuses %s with a 4xx in the envelope, never a 500', async (url) => {
    // A link as a post would carry it, signed even where the relay would no longer sign the form.
    const sig = relaySigner(t.ctx.config.sessionSecret)(url);
    const res = await fetch(`${t.baseUrl}/api/images?u=${encodeURIComponent(url)}&s=${sig}`);
    expect(res.status, url).toBeGreaterThanOrEqual(400);
    expect(res.status, url).toBeLessThan(500);
    expect((await res.json()).code, url).toEqual(expect.any(String));
  });
});

describe('images in posts', () => {
  it('are relayed only from http(s) addresses, never from this site or other schemes', () => {
    const relayed = relayOnly(() => 'sig');
    expect(relayed('https://pics.example/a.png')).toBe('/api/images?u=https%3A%2F%2Fpics.example%2Fa.png&s=sig');
    for (const own of [
      '/api/video/download?url=x&quality=hd',
      '//evil.example/a.png',
      'api/x',
      'data:image/png;base64,AA',
      'http:///x.png',
      'http://[::1/x.png',
    ])
      expect(relayed(own), own).toBeNull();
  });
});

// A GET that spends (issue 34): a public post's Markdown `![ ](/api/video/download?url=…&quality=hd)`
// became an <img> on this site, the browser sent it same-origin with the reader's cookie, and each
// signed-in reader spent a Free download on it (0 → 3 by opening one post). A spending or
// work-starting GET now needs the person's own navigation (Fetch Metadata), or a client that sends
// none (curl); a picture, a fetch or a frame is refused before any work (decision 0046). Without
// Fetch Metadata the link must carry the person's key, as the option links here do (decision 0082,
// test/security/spending-links.test.ts).
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';

const browser = (site: string, mode: string, dest: string, user?: boolean) => ({
  'sec-fetch-site': site,
  'sec-fetch-mode': mode,
  'sec-fetch-dest': dest,
  ...(user ? { 'sec-fetch-user': '?1' } : {}),
});

type Client = Awaited<ReturnType<TestApp['signUp']>>;

/** A GET with headers as a browser sends them (Node's fetch would replace Sec-Fetch-Mode with its own). */
function get(c: Client, url: string, headers: Record<string, string>): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${c.baseUrl}${url}`,
      { headers: { ...headers, cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
  });
}
const code = (r: { body: Buffer }) => JSON.parse(r.body.toString()).code;

describe('GET requests that spend or start work', () => {
  let t: TestApp;
  let tt: FakeTikTok;
  beforeAll(async () => {
    tt = await startFakeTikTok();
    t = await createTestApp({ env: { UPSTREAM_HOST_MAP: tt.hostMapJson } });
  });
  afterAll(async () => {
    await t.close();
    await tt.close();
  });
  const used = async (userId: string) => (await t.ctx.repos.users.findById(userId))!.downloadCount;

  it('a picture, a script or a frame on this site spends nothing; the person’s own link does', async () => {
    const c = await t.signUp();
    const info = await (await c.post('/api/video/info', { url: tt.addVideo().url })).json();
    const hd = info.downloadOptions.find((o: { quality: string }) => o.quality === 'hd').url as string;
    const refused: Array<[string, Record<string, string>, string]> = [
      ['an <img> in a post', browser('same-origin', 'no-cors', 'image'), 'request.not_navigation'],
      ['a fetch() from a page', browser('same-origin', 'cors', 'empty'), 'request.not_navigation'],
      ['a same-origin frame', browser('same-origin', 'navigate', 'iframe'), 'request.not_navigation'],
      ['a <video> (no media route)', browser('same-origin', 'no-cors', 'video'), 'request.not_navigation'],
      ['another site’s link', browser('cross-site', 'navigate', 'document', true), 'auth.bad_origin'],
      ['another site’s picture', browser('cross-site', 'no-cors', 'image'), 'auth.bad_origin'],
    ];
    for (const [what, headers, expected] of refused) {
      const res = await get(c, hd, headers);
      expect([what, res.status, code(res)]).toEqual([what, 403, expected]);
    }
    expect(await used(c.userId)).toBe(0);
    const allowed: Array<[string, Record<string, string>]> = [
      ['a clicked <a download>', browser('same-origin', 'navigate', 'empty', true)],
      ['a clicked link', browser('same-origin', 'navigate', 'document', true)],
      ['the address typed in', browser('none', 'navigate', 'document', true)],
      ['curl with the cookie (the person’s keyed link)', {}],
      ["Node's fetch (a lone Sec-Fetch-Mode)", { 'sec-fetch-mode': 'cors' }],
    ];
    for (const [i, [what, headers]] of allowed.entries()) {
      const res = await get(c, hd, headers);
      expect([what, res.status]).toEqual([what, 200]);
      await expect.poll(() => used(c.userId)).toBe(i + 1);
    }
  });

  it('the free preview clip (a media job) starts for a <video>, never for an <img>', async () => {
    const c = await t.signUp();
    const info = await (await c.post('/api/video/info', { url: tt.addVideo().url })).json();
    const img = await get(c, info.videoUrl, browser('same-origin', 'no-cors', 'image'));
    expect([img.status, code(img)]).toEqual([403, 'request.not_navigation']);
    const video = await get(c, info.videoUrl, browser('same-origin', 'no-cors', 'video'));
    expect(video.status).toBe(302);
  }, 60_000);
});

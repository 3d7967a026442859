// Spending GETs on a plain-http address (issue 42): a browser sends no Fetch Metadata to a LAN name
// over http, so another site's window.open, location=, GET form, <a download> or meta refresh
// reached `GET /api/video/download` looking like curl, with the person's Lax cookie, and spent all
// their Free downloads. Without Fetch Metadata a spending GET now needs a key made for this person
// by this site (lib/spend-links.ts, decision 0082). These requests send no Sec-Fetch header at all.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { createSpendLinks, SPEND_KEY_TTL_MS } from '../../src/server/lib/spend-links.js';

type Client = ReturnType<TestApp['client']>;

/** A GET with only the cookie (and `headers`): no Sec-Fetch-* (Node's fetch would add Sec-Fetch-Mode). */
function get(c: Client, url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const req = http.get(`${c.baseUrl}${url}`, { headers: { ...headers, ...(cookie ? { cookie } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}
const envelope = (r: { body: Buffer }) => JSON.parse(r.body.toString()) as { code: string; message: string };
const unkeyed = (link: string) => link.replace(/[?&]t=[^&]*/, '');
const option = (info: { downloadOptions: Array<{ quality: string; url: string }> }, quality: string) =>
  info.downloadOptions.find((o) => o.quality === quality)!.url;

describe.each(DB_KINDS)('spending links without Fetch Metadata (%s)', (db) => {
  let t: TestApp;
  let tt: FakeTikTok;
  beforeAll(async () => {
    tt = await startFakeTikTok();
    t = await createTestApp({ db, env: { UPSTREAM_HOST_MAP: tt.hostMapJson, VIDEO_INFO_PER_MINUTE: '1000' } });
  });
  afterAll(async () => {
    await t?.close();
    await tt?.close();
  });
  const used = async (userId: string) => (await t.ctx.repos.users.findById(userId))!.downloadCount;
  const infoFor = async (c: Client, url: string) => (await c.post('/api/video/info', { url })).json();

  it('another site’s navigation (no key) spends nothing; the person’s keyed link does', async () => {
    const c = await t.signUp();
    const info = await infoFor(c, tt.addVideo().url);
    const hd = option(info, 'hd');
    for (const link of [unkeyed(hd), `/api/video/download?url=${encodeURIComponent(info.url)}`]) {
      const res = await get(c, link);
      expect(res.status).toBe(403);
      expect(envelope(res).code).toBe('request.unkeyed_link');
      expect(envelope(res).message).toMatch(/^This link spends a download or starts work/);
    }
    expect(await used(c.userId)).toBe(0);
    expect(hd).toMatch(/[?&]t=\d+\.[\w-]{43}$/);
    const served = await get(c, hd);
    expect(served.status).toBe(200);
    expect(served.body.length).toBeGreaterThan(1000);
    await expect.poll(() => used(c.userId)).toBe(1);
  });

  it('a key that expired, is another person’s, or another link’s is refused; nothing is spent', async () => {
    const a = await t.signUp();
    const b = await t.signUp();
    const v = tt.addVideo();
    const infoA = await infoFor(a, v.url);
    const infoB = await infoFor(b, v.url);
    const hd = unkeyed(option(infoA, 'hd'));
    const past = createSpendLinks(t.ctx.config.sessionSecret, () => Date.now() - SPEND_KEY_TTL_MS - 60_000);
    const otherSecret = createSpendLinks('another-secret-another-secret-0123456');
    const keyOf = (link: string) => /[?&](t=[^&]*)/.exec(link)![1];
    const cases: Array<[string, string, string]> = [
      ['expired', past.sign(a.userId, hd), 'This link has expired.'],
      ['another person’s', option(infoB, 'hd'), 'This link spends'],
      ['another quality’s', `${unkeyed(option(infoA, 'sd'))}&${keyOf(option(infoA, 'hd'))}`, 'This link spends'],
      ['another video’s', `${hd.replace(v.id, `${v.id}1`)}&${keyOf(option(infoA, 'hd'))}`, 'This link spends'],
      ['the preview’s, on a download', `${hd}&${keyOf(infoA.videoUrl)}`, 'This link spends'],
      ['another secret’s', otherSecret.sign(a.userId, hd), 'This link spends'],
      ['a forged one', `${hd}&t=9999999999.${'A'.repeat(43)}`, 'This link spends'],
    ];
    for (const [what, link, message] of cases) {
      const res = await get(a, link);
      expect([what, res.status, envelope(res).code]).toEqual([what, 403, 'request.unkeyed_link']);
      expect(envelope(res).message.startsWith(message)).toBe(true);
    }
    expect(await used(a.userId)).toBe(0);
    expect(await used(b.userId)).toBe(0);
  });

  it('another site is refused even with a key; signed out is asked to sign in', async () => {
    const c = await t.signUp();
    const hd = option(await infoFor(c, tt.addVideo().url), 'hd');
    const cross = await get(c, hd, {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    });
    expect([cross.status, envelope(cross).code]).toEqual([403, 'auth.bad_origin']);
    const signedOut = await get(t.client(), unkeyed(hd));
    expect([signedOut.status, envelope(signedOut).code]).toEqual([401, 'auth.required']);
    expect(await used(c.userId)).toBe(0);
  });

  it('the preview clip (a media job) starts only for a keyed link', async () => {
    const c = await t.signUp();
    const info = await infoFor(c, tt.addVideo().url);
    expect(info.videoUrl).toMatch(/[?&]t=/);
    const bare = await get(c, unkeyed(info.videoUrl));
    expect([bare.status, envelope(bare).code]).toEqual([403, 'request.unkeyed_link']);
    const keyed = await get(c, info.videoUrl);
    expect(keyed.status).toBe(302);
  }, 60_000);

  it('a script mints a key with POST /api/video/link (this site’s Origin only)', async () => {
    const c = await t.signUp();
    const v = tt.addVideo();
    const foreign = await c.post('/api/video/link', { url: v.url, quality: 'sd' }, { origin: 'http://evil.lan' });
    expect([foreign.status, (await foreign.json()).code]).toEqual([403, 'auth.bad_origin']);
    const signedOut = await t.client().post('/api/video/link', { url: v.url, quality: 'sd' });
    expect(signedOut.status).toBe(401);
    const minted = await c.post('/api/video/link', { url: v.url, quality: 'sd' });
    expect(minted.status).toBe(200);
    const { url } = (await minted.json()) as { url: string };
    expect(url).toMatch(/^\/api\/video\/download\?url=.+&quality=sd&t=\d+\.[\w-]{43}$/);
    const res = await get(c, url);
    expect(res.status).toBe(200);
    await expect.poll(() => used(c.userId)).toBe(1);
  });
});

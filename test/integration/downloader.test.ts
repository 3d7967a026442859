import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { downloads, users } from '../../src/server/db/schema.js';
import { slabsReused } from '../../src/server/adapters/http/slabs.js';
import { attachmentName } from '../helpers/attachment-name.js';

describe.each(DB_KINDS)('downloader (%s)', (db) => {
  let tt: FakeTikTok;
  let t: TestApp;
  const observed: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    tt = await startFakeTikTok();
    t = await createTestApp({
      db,
      env: { UPSTREAM_HOST_MAP: tt.hostMapJson, VIDEO_INFO_PER_MINUTE: '10000' },
      configure: (ctx) => ctx.videoObservers.push((v) => observed.push(v.raw)),
    });
  });
  afterAll(async () => {
    await t?.close();
    await tt?.close();
  });

  const pageFetches = (id: string) =>
    tt.requests.filter((r) => r.host === 'www.tiktok.com' && r.path.includes(`/video/${id}`)).length;
  const userRow = async (id: string) => (await t.ctx.db.select().from(users).where(eq(users.id, id)))[0];
  const status = async (c: { get(p: string): Promise<Response> }) => (await c.get('/api/subscription/status')).json();

  it('maps the real captured page to the Video info shape, signed out, with only our own media links', async () => {
    const res = await t
      .client()
      .post('/api/video/info', { url: `  ${tt.fixtureUrl}?is_from_webapp=1&sender_device=pc  ` });
    expect(res.status).toBe(200);
    const info = await res.json();
    expect(info).toMatchObject({
      url: tt.fixtureUrl,
      videoId: '7504044860782021930',
      author: 'tjrobertson52',
      duration: 251,
      views: 71400,
      likes: 1819,
      thumbnail: '/api/video/thumbnail/7504044860782021930',
      videoUrl: '/api/video/stream/7504044860782021930',
    });
    expect(info.title).toMatch(/^Digital marketing will be DEAD by 2027/);
    // The sharper HEVC gears (remuxed with their sound by the server), then the muxed H.264 gears.
    expect(
      info.downloadOptions.map((o: { quality: string; codec: string; resolution: string; size: number }) => [
        o.quality,
        o.codec,
        o.resolution,
        o.size,
      ]),
    ).toEqual([
      ['1080p', 'hevc', '1080x1920', 57894323],
      ['720p', 'hevc', '720x1280', 33377451],
      ['hd', 'h264', '576x1024', 72143208],
      ['sd', 'h264', '576x1024', 26194101],
      ['sound', undefined, 'Audio', null], // the original sound, copied (issue 28)
    ]);
    expect(JSON.stringify(info)).not.toMatch(/tiktok(cdn)?(-us)?\.com\/(video|aweme|obj|tos)/);
    for (const o of info.downloadOptions) expect(o.url.startsWith('/api/')).toBe(true);
    expect(observed.some((i) => i.id === '7504044860782021930')).toBe(true);
  });

  it('serves a second lookup of the same id from the cache: no page fetch, no observer call', async () => {
    const v = tt.addVideo({ desc: '' });
    const before = observed.length;
    const first = await (await t.client().post('/api/video/info', { url: v.url })).json();
    expect(first.title).toBe(`TikTok video #${v.id}`);
    await t.client().post('/api/video/info', { url: v.url });
    expect(pageFetches(v.id)).toBe(1);
    expect(observed.length).toBe(before + 1);
  });

  it('refuses links that are not TikTok videos with 400 before any request leaves', async () => {
    const before = tt.requests.length;
    for (const url of [
      'https://www.youtube.com/watch?v=abc',
      'https://www.tiktok.com.evil.com/@a/video/1',
      'https://www.tiktok.com@127.0.0.1/@a/video/1',
      'https://user:pw@www.tiktok.com/@a/video/1',
      'https://www.tiktok.com:8443/@a/video/1',
      'https://www.tiktok.com/@a/video/1234567890123456789012',
      'ftp://www.tiktok.com/@a/video/1',
      'not a url',
      'http://127.0.0.1/@a/video/1',
      'http://169.254.169.254/latest/meta-data',
    ]) {
      const res = await t.client().post('/api/video/info', { url });
      expect(res.status, url).toBe(400);
      expect((await res.json()).message, url).toBe('Please provide a valid TikTok or Bluesky or Reddit URL');
    }
    const empty = await t.client().post('/api/video/info', { url: '' });
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toBe('Please provide a valid TikTok or Bluesky or Reddit URL');
    expect(tt.requests.length).toBe(before);
  });

  it('resolves vm., vt. and /t/ short links and refuses one that does not land on a video', async () => {
    const v = tt.addVideo();
    tt.addShortLink('ZTvm1', `${v.url}?_r=1&_t=abc`);
    for (const link of [
      'https://vm.tiktok.com/ZTvm1/',
      'https://vt.tiktok.com/ZTvm1',
      'https://www.tiktok.com/t/ZTvm1/',
    ]) {
      const res = await t.client().post('/api/video/info', { url: link });
      expect(res.status, link).toBe(200);
      expect((await res.json()).videoId).toBe(v.id);
    }
    const dead = await t.client().post('/api/video/info', { url: 'https://vm.tiktok.com/ZTnothing/' });
    expect(dead.status).toBe(400);
    expect((await dead.json()).code).toBe('link.unsupported');
    // A short link redirecting to loopback is refused by the guarded client.
    tt.addShortLink('ZTevil', `http://127.0.0.1:${new URL(tt.origin).port}/@a/video/1`);
    const evil = await t.client().post('/api/video/info', { url: 'https://vm.tiktok.com/ZTevil/' });
    expect(evil.status).toBe(400);
    expect(tt.requests.some((r) => r.host.startsWith('127.0.0.1'))).toBe(false);
  });

  it.each([
    ['deleted', 404, 'video.not_found'],
    ['user_not_found', 404, 'video.not_found'],
    ['region_withheld', 451, 'video.region_blocked'],
    ['region_locked', 451, 'video.region_blocked'],
    ['private', 403, 'video.private'],
    ['private_account', 403, 'video.private'],
    ['classified', 403, 'video.age_restricted'],
    ['login', 403, 'video.login_required'],
    ['rate_limited', 429, 'upstream.rate_limited'],
    ['no_data', 429, 'upstream.rate_limited'],
    ['unavailable', 424, 'upstream.unavailable'],
  ] as const)('answers a %s page with %i %s and a clear message', async (kind, code, errorCode) => {
    const res = await t.client().post('/api/video/info', { url: tt.addError(kind) });
    expect(res.status).toBe(code);
    const body = await res.json();
    expect(body.code).toBe(errorCode);
    expect(body.message.length).toBeGreaterThan(20);
  });

  it('solves TikTok\'s "Please wait..." proof-of-work page and gets the video', async () => {
    const v = tt.addVideo({ challenge: true, desc: 'Behind a bot check' });
    const before = tt.challengesSolved;
    const res = await t.client().post('/api/video/info', { url: v.url });
    expect(res.status).toBe(200);
    expect((await res.json()).title).toBe('Behind a bot check');
    expect(tt.challengesSolved).toBe(before + 1);
  });

  it('needs an account to download', async () => {
    const res = await t.client().post('/api/video/download', { url: tt.fixtureUrl, quality: 'hd' });
    expect(res.status).toBe(401);
  });

  it('streams the watermark-free file with the page cookies, counts it at once, and lists it', async () => {
    const c = await t.signUp();
    const v = tt.addVideo({ desc: 'Downloaded one' });
    await c.post('/api/video/info', { url: v.url });
    const res = await c.post('/api/video/download', { url: v.url, quality: 'hd' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(attachmentName(res)).toMatch(/^tiktok-fakecreator-\d+\.mp4$/);
    expect(Number(res.headers.get('content-length'))).toBe(v.size);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.equals(fs.readFileSync(v.mediaFile!))).toBe(true);
    expect(await status(c)).toMatchObject({ downloadCount: 1, remainingDownloads: 5, canDownload: true });
    expect(pageFetches(v.id)).toBe(1); // the download reused the cached page and cookies
    const cdn = tt.requests.filter((r) => r.path.includes(`/fake/${v.id}/normal_540_0/`));
    expect(cdn.at(-1)!.cookie).toMatch(/tt_chain_token=/);
    expect(cdn.at(-1)!.referer).toMatch(/^https:\/\/www\.tiktok\.com\//);
    expect(tt.requests.some((r) => r.path.includes('/download_wm/') || r.path.startsWith('/aweme/v1/play'))).toBe(
      false,
    );
    const recent = await (await c.get('/api/downloads/recent')).json();
    expect(recent[0]).toMatchObject({ videoId: v.id, title: 'Downloaded one', author: 'fakecreator', quality: 'hd' });
    // The row keeps ids; the thumbnail's link is made when answered, and it leads to the picture.
    expect(recent[0].thumbnail).toBe(`/api/video/thumbnail/${v.id}`);
    expect((await c.get(recent[0].thumbnail)).headers.get('content-type')).toMatch(/^image\//);
    const [row] = await t.ctx.db.select().from(downloads).where(eq(downloads.videoId, v.id));
    expect(Object.values(row).filter((x) => typeof x === 'string' && x.startsWith('/api/'))).toEqual([]);
  });

  it('the CDN refuses a request without the page cookie, so links are never handed out bare', async () => {
    const v = tt.addVideo();
    const direct = await fetch(`${tt.origin}/video/tos/fake/${v.id}/normal_540_0/`, {
      headers: { host: 'v16-webapp-prime.us.tiktok.com' },
    });
    expect(direct.status).toBe(403);
    const c = await t.signUp();
    expect((await c.post('/api/video/download', { url: v.url, quality: 'sd' })).status).toBe(200);
  });

  it('keeps the quota when the upstream transfer is cut halfway, and after clearing history', async () => {
    const c = await t.signUp({ downloadCount: 2 });
    const v = tt.addVideo({ media: { size: 4_000_000 }, cutAfterBytes: 1_000_000 });
    const res = await c.post('/api/video/download', { url: v.url, quality: 'hd' });
    await expect(res.arrayBuffer()).rejects.toThrow();
    await expect.poll(async () => (await userRow(c.userId)).downloadsReserved).toBe(0); // settled
    expect((await status(c)).downloadCount).toBe(2);
    const ok = await c.post('/api/video/download', { url: tt.addVideo().url, quality: 'hd' });
    await ok.arrayBuffer();
    expect((await status(c)).downloadCount).toBe(3);
    const cleared = await c.delete('/api/downloads');
    expect(cleared.status).toBe(200);
    expect(await (await c.get('/api/downloads/recent')).json()).toEqual([]);
    expect(await status(c)).toMatchObject({ downloadCount: 3, remainingDownloads: 3 });
  });

  /** A download the test can cut off (fetch with its own signal, as a browser leaving would). */
  async function abortableDownload(c: Awaited<ReturnType<TestApp['signUp']>>, url: string) {
    const ac = new AbortController();
    const res = await fetch(`${t.baseUrl}/api/video/download`, {
      method: 'POST',
      signal: ac.signal,
      headers: {
        'content-type': 'application/json',
        origin: t.baseUrl,
        cookie: [...c.cookies].map(([k, val]) => `${k}=${val}`).join('; '),
      },
      body: JSON.stringify({ url, quality: 'hd' }),
    });
    return { ac, res };
  }

  it('stops the upstream transfer when the client disconnects mid-file, and gives the slot back', async () => {
    const c = await t.signUp();
    const v = tt.addVideo({ media: { size: 60_000_000 } });
    const { ac, res } = await abortableDownload(c, v.url);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let got = 0;
    while (got < 500_000) got += (await reader.read()).value!.length;
    ac.abort();
    const transfer = () => tt.transfers.find((x) => x.path.includes(`/fake/${v.id}/`))!;
    await expect.poll(() => transfer().aborted, { timeout: 5_000 }).toBe(true);
    expect(transfer().bytesSent).toBeLessThan(30_000_000);
    await expect.poll(async () => (await userRow(c.userId)).downloadsReserved).toBe(0);
    expect((await userRow(c.userId)).downloadCount).toBe(0);
  });

  it('counts a download closed by the client after more than half of it arrived (issue 34: 89.5 % was free)', async () => {
    const c = await t.signUp();
    const size = 60_000_000; // larger than what the sockets and the client buffer ahead
    const v = tt.addVideo({ media: { size } });
    const { ac, res } = await abortableDownload(c, v.url);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let got = 0;
    while (got < size * 0.75) got += (await reader.read()).value!.length;
    ac.abort();
    const transfer = () => tt.transfers.find((x) => x.path.includes(`/fake/${v.id}/`))!;
    await expect.poll(() => transfer().aborted || transfer().completed).toBe(true);
    await expect.poll(async () => (await userRow(c.userId)).downloadsReserved).toBe(0);
    expect((await userRow(c.userId)).downloadCount).toBe(1);
    expect((await status(c)).remainingDownloads).toBe(5);
    expect(transfer().bytesSent).toBeLessThan(size); // it was not the whole file
  });

  it('delivers every byte intact to parallel and back-to-back downloads, which reuse read buffers', async () => {
    const c = await t.signUp({ pro: true });
    const reusedBefore = slabsReused();
    // Larger than the loopback socket buffers, so a paused reader leaves chunks queued in the server.
    const files = [crypto.randomBytes(12_000_000), crypto.randomBytes(9_000_000)];
    const videos = files.map((bytes) => tt.addVideo({ media: { bytes } }));
    for (const v of videos) await c.post('/api/video/info', { url: v.url });
    const fetchOne = async (i: number, pauseMs = 0) => {
      const res = await c.post('/api/video/download', { url: videos[i].url, quality: 'hd' });
      const reader = res.body!.getReader();
      const parts: Buffer[] = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return Buffer.concat(parts);
        parts.push(Buffer.from(value));
        if (parts.length === 1 && pauseMs) await new Promise((r) => setTimeout(r, pauseMs)); // others go on meanwhile
      }
    };
    for (let round = 0; round < 2; round++) {
      const got = await Promise.all([fetchOne(0, 300), fetchOne(1, 300), fetchOne(0), fetchOne(1)]);
      for (const [k, bytes] of got.entries()) expect(bytes.equals(files[k % 2])).toBe(true);
    }
    expect(slabsReused()).toBeGreaterThan(reusedBefore); // this test's downloads took the reuse path
  });

  // The CDN file is opened alongside the reservation (download.service.ts), so the nineteen refused
  // requests each open a transfer and must close it. 20 MB: such a transfer is mostly cut mid-file.
  // 1 MB: the socket buffers hold the whole file before the refusal, so the fake wrote every byte
  // (`completed`) of transfers nobody read; they count as closed because our server then reset them
  // with the file unread. "completed" alone never meant "downloaded" (fake-tiktok.ts, Transfer): the
  // two completed 20 MB transfers once seen in CI were most likely a refused one on a kept-alive
  // connection whose buffers had grown. A refused request that read the file, or left its transfer
  // open, still fails here (it is then taken whole, or never closed).
  it.each([
    ['20 MB', 20_000_000],
    ['1 MB', 1_000_000],
  ])(
    'gives exactly one download to twenty parallel requests from a free user with 5 used (%s file)',
    async (_label, size) => {
      const c = await t.signUp({ downloadCount: 5 });
      const v = tt.addVideo({ media: { size } });
      await c.post('/api/video/info', { url: v.url });
      const results = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const res = await c.post('/api/video/download', { url: v.url, quality: 'hd' });
          return { status: res.status, body: res.status === 200 ? await res.arrayBuffer() : await res.json() };
        }),
      );
      // Exactly one request got the file, whole.
      const ok = results.filter((r) => r.status === 200);
      expect(ok).toHaveLength(1);
      expect((ok[0].body as ArrayBuffer).byteLength).toBe(size);
      const refused = results.filter((r) => r.status === 403);
      expect(refused).toHaveLength(19);
      for (const r of refused) expect(r.body).toMatchObject({ limitReached: true, code: 'quota.exhausted' });
      // Counted exactly once: one completed download row, no slot left reserved.
      expect(await status(c)).toMatchObject({ downloadCount: 6, remainingDownloads: 0, canDownload: false });
      const rows = await t.ctx.db.select().from(downloads).where(eq(downloads.userId, c.userId));
      expect(rows.map((r) => r.status)).toEqual(['completed']);
      expect(await userRow(c.userId)).toMatchObject({ downloadCount: 6, downloadsReserved: 0 });
      // CDN side: exactly one transfer was taken whole (by the download above); every other one was
      // closed by our server, mid-file (aborted) or with the written file unread (reset).
      const transfers = () => tt.transfers.filter((x) => x.path.includes(`/fake/${v.id}/`));
      const takenWhole = () => transfers().filter((x) => x.completed && !x.reset);
      const settled = () => transfers().every((x) => x.completed || x.aborted) && takenWhole().length <= 1;
      for (let i = 0; i < 50 && !settled(); i++) await new Promise((r) => setTimeout(r, 100));
      // On failure the message lists every transfer (bytes sent, flags) to tell a late abort from a real leak.
      const seen = JSON.stringify(transfers().map((x) => [x.status, x.bytesSent, x.completed, x.aborted, x.reset]));
      expect(takenWhole(), seen).toHaveLength(1);
      expect(takenWhole()[0].bytesSent, seen).toBe(size);
      expect(
        transfers().every((x) => (x.completed && !x.reset) || x.aborted || x.reset),
        seen,
      ).toBe(true);
    },
  );

  it('refuses a free user at the limit with limitReached, and never limits Pro users', async () => {
    const free = await t.signUp({ downloadCount: 6 });
    const res = await free.post('/api/video/download', { url: tt.fixtureUrl, quality: 'hd' });
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(body).toMatchObject({ limitReached: true, code: 'quota.exhausted' });
    expect(body.message).toMatch(/limit of 6 downloads/);
    const pro = await t.signUp({ pro: true, downloadCount: 40 });
    const ok = await pro.post('/api/video/download', { url: tt.addVideo().url, quality: 'hd' });
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
  });

  it('fails a reservation left behind by a crashed process instead of holding the slot forever', async () => {
    const c = await t.signUp({ downloadCount: 5 });
    await t.ctx.db
      .insert(downloads)
      .values({ userId: c.userId, url: tt.fixtureUrl, status: 'reserved', createdAt: sql`now() - interval '3 hours'` });
    await t.ctx.db.update(users).set({ downloadsReserved: 1 }).where(eq(users.id, c.userId));
    const res = await c.post('/api/video/download', { url: tt.addVideo().url, quality: 'hd' });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(await userRow(c.userId)).toMatchObject({ downloadCount: 6, downloadsReserved: 0 });
  });

  it('refuses an unknown quality with 400 and frees nothing', async () => {
    const c = await t.signUp();
    const res = await c.post('/api/video/download', { url: tt.addVideo().url, quality: 'uhd' });
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('video.quality_unavailable');
    expect(await userRow(c.userId)).toMatchObject({ downloadCount: 0, downloadsReserved: 0 });
  });

  it('plays the inline preview through its own endpoint with ranges (Pro), and proxies the thumbnail', async () => {
    // Free users get a short clip instead (test/security/media.test.ts).
    const c = await t.signUp({ pro: true });
    const v = tt.addVideo();
    // The person's own preview link carries their key (decision 0082); this client sends no Fetch Metadata.
    const { videoUrl } = await (await c.post('/api/video/info', { url: v.url })).json();
    expect(videoUrl).toMatch(new RegExp(`^/api/video/stream/${v.id}\\?t=`));
    const part = await c.get(videoUrl, { range: 'bytes=0-99' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${v.size}`);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
    expect((await t.client().get(`/api/video/stream/${v.id}`)).status).toBe(401);
    const thumb = await t.client().get(`/api/video/thumbnail/${v.id}`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    expect((await thumb.arrayBuffer()).byteLength).toBeGreaterThan(500);
  });
});

describe('video lookups rate limit', () => {
  it('limits signed-out lookups per IP with 429 and Retry-After', async () => {
    const tt = await startFakeTikTok();
    const t = await createTestApp({ env: { UPSTREAM_HOST_MAP: tt.hostMapJson, VIDEO_INFO_PER_MINUTE: '3' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await t.client().post('/api/video/info', { url: tt.fixtureUrl })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const res = await t.client().post('/api/video/info', { url: tt.fixtureUrl });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await t.close();
      await tt.close();
    }
  });
});

describe('video lookups and private addresses', () => {
  it('refuses a TikTok host whose DNS answer is private, without connecting', async () => {
    const { createHttpClient } = await import('../../src/server/adapters/http/index.js');
    const asked: string[] = [];
    const http = createHttpClient({
      lookup: async (host) => {
        asked.push(host);
        return [{ address: '192.168.1.20', family: 4 }];
      },
    });
    const t = await createTestApp({ overrides: { http } });
    try {
      const res = await t
        .client()
        .post('/api/video/info', { url: 'https://www.tiktok.com/@a/video/7504044860782021930' });
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe('upstream.blocked');
      expect(asked).toEqual(['www.tiktok.com']);
    } finally {
      await t.close();
    }
  });
});

describe('downloads to a client that stops reading', () => {
  it('frees the upstream connection and gives the slot back once the client has read nothing for a while', async () => {
    const { createHttpClient } = await import('../../src/server/adapters/http/index.js');
    const tt = await startFakeTikTok();
    // A short idle period so the stall limit (four idle periods) is reached within the test.
    const http = createHttpClient({ hostMap: JSON.parse(tt.hostMapJson), idleTimeoutMs: 300 });
    const t = await createTestApp({ overrides: { http } });
    try {
      const c = await t.signUp();
      const v = tt.addVideo({ media: { size: 60_000_000 } });
      const res = await fetch(`${t.baseUrl}/api/video/download`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: t.baseUrl,
          cookie: [...c.cookies].map(([k, val]) => `${k}=${val}`).join('; '),
        },
        body: JSON.stringify({ url: v.url, quality: 'hd' }),
      });
      expect(res.status).toBe(200);
      await res.body!.getReader().read(); // one chunk, then the client never reads again
      const transfer = () => tt.transfers.find((x) => x.path.includes(`/fake/${v.id}/`))!;
      await expect.poll(() => transfer().aborted, { timeout: 10_000 }).toBe(true);
      expect(transfer().bytesSent).toBeLessThan(60_000_000);
      await expect
        .poll(async () => (await t.ctx.db.select().from(users).where(eq(users.id, c.userId)))[0].downloadsReserved)
        .toBe(0);
      expect((await t.ctx.db.select().from(users).where(eq(users.id, c.userId)))[0].downloadCount).toBe(0);
    } finally {
      await t.close();
      await tt.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';

const video = (o: Record<string, unknown> = {}) => ({
  title: 'Dance challenge',
  videoUrl: 'https://www.tiktok.com/@maya/video/7350000000000000001',
  platform: 'tiktok',
  ...o,
});

// Sign-ups are rate-limited per IP; these tests need many accounts, so each comes from its own
// forwarded address (TRUST_PROXY on) and Pro is granted directly in the database.
let ipSeq = 0;
async function signUp(app: TestApp, o: { pro?: boolean; email?: string } = {}) {
  const c = app.client();
  const n = ++ipSeq;
  const email = o.email ?? `curator${Date.now()}_${n}@example.com`;
  const res = await c.request(
    'POST',
    '/api/auth/register',
    { email, password: 'correct horse battery' },
    { 'x-forwarded-for': `10.8.${n >> 8}.${n & 255}` },
  );
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  if (o.pro) await app.ctx.repos.users.update(id, { proGranted: true });
  return Object.assign(c, { userId: id, email });
}

describe.each(DB_KINDS)('trending videos (%s)', (db) => {
  let t: TestApp;
  const env = { ADMIN_EMAILS: 'boss@example.com', TRUST_PROXY: 'true' };
  beforeAll(async () => {
    t = await createTestApp({ db, env });
  });
  afterAll(() => t.close());

  async function expect400(body: unknown, message: RegExp) {
    const c = await signUp(t, { pro: true });
    const res = await c.post('/api/trending-videos', body);
    const json = await res.json();
    expect(res.status, JSON.stringify(json)).toBe(400);
    expect(json.message).toMatch(message);
  }

  it('is Pro only: 401 signed out, 403 pro_required for a free user', async () => {
    expect((await t.client().get('/api/trending-videos')).status).toBe(401);
    const free = await signUp(t);
    for (const res of [
      await free.get('/api/trending-videos'),
      await free.post('/api/trending-videos', video()),
      await free.patch('/api/trending-videos/1/score', { trendingScore: 1 }),
      await free.delete('/api/trending-videos/1'),
    ]) {
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        message: 'This is a Pro feature. Upgrade to use it.',
        code: 'billing.pro_required',
      });
    }
  });

  it('curates with the founding defaults and normalised tags, and a score that always starts at 0', async () => {
    const c = await signUp(t, { pro: true });
    const res = await c.post(
      '/api/trending-videos',
      video({ tags: ' #dance, , fyp ,#dance,  ', trendingScore: 999, curatedBy: 'someone' }),
    );
    expect(res.status).toBe(201);
    const v = await res.json();
    expect(v).toMatchObject({
      title: 'Dance challenge',
      platform: 'tiktok',
      status: 'active',
      tags: ['dance', 'fyp'],
      viewCount: 0,
      likeCount: 0,
      trendingScore: 0,
      curatedBy: c.userId,
      description: null,
      thumbnailUrl: null,
      author: null,
      boosted: false,
    });
    const withCounts = await (
      await c.post(
        '/api/trending-videos',
        video({ viewCount: 1_234_567, likeCount: 89_000, tags: ['a', 'b'], status: 'inactive' }),
      )
    ).json();
    expect(withCounts).toMatchObject({ viewCount: 1_234_567, likeCount: 89_000, tags: ['a', 'b'], status: 'inactive' });
  });

  it('refuses missing required fields with clear messages', async () => {
    await expect400({ videoUrl: video().videoUrl, platform: 'tiktok' }, /^Title is required$/);
    await expect400(video({ title: '  ' }), /^Title is required$/);
    await expect400({ title: 'x', platform: 'tiktok' }, /^Video URL is required$/);
    await expect400({ title: 'x', videoUrl: video().videoUrl }, /Platform must be one of tiktok, instagram, facebook/);
    await expect400(video({ platform: 'youtube' }), /Platform must be one of tiktok, instagram, facebook/);
    await expect400(video({ status: 'deleted' }), /Status must be active or inactive/);
  });

  it('keeps every field at its limit and refuses one more character', async () => {
    const c = await signUp(t, { pro: true });
    const url = (len: number) => `https://example.com/${'u'.repeat(len - 'https://example.com/'.length)}`;
    const ok = await c.post(
      '/api/trending-videos',
      video({ title: 't'.repeat(255), videoUrl: url(500), thumbnailUrl: url(500), author: 'a'.repeat(255) }),
    );
    expect(ok.status).toBe(201);
    expect((await ok.json()).title).toHaveLength(255);
    await expect400(video({ title: 't'.repeat(256) }), /Title must be at most 255 characters/);
    await expect400(video({ videoUrl: url(501) }), /Video URL must be at most 500 characters/);
    await expect400(video({ thumbnailUrl: url(501) }), /Thumbnail URL must be at most 500 characters/);
    await expect400(video({ author: 'a'.repeat(256) }), /Author must be at most 255 characters/);
    expect((await c.post('/api/trending-videos', video({ description: 'd'.repeat(5000) }))).status).toBe(201);
    await expect400(video({ description: 'd'.repeat(5001) }), /Description must be at most 5000 characters/);
    await expect400(video({ tags: Array.from({ length: 31 }, (_, i) => `t${i}`) }), /At most 30 tags/);
    await expect400(video({ viewCount: -1 }), /View count must be at least 0/);
    await expect400(video({ likeCount: 1.5 }), /Like count must be a whole number/);
  });

  it("accepts this product's own thumbnail path from Fetch Info, and no other relative path", async () => {
    const c = await signUp(t, { pro: true });
    const ok = await c.post(
      '/api/trending-videos',
      video({ thumbnailUrl: '/api/video/thumbnail/7504044860782021930' }),
    );
    expect(ok.status).toBe(201);
    expect((await ok.json()).thumbnailUrl).toBe('/api/video/thumbnail/7504044860782021930');
    for (const bad of ['/api/video/thumbnail/../../x', '/evil', '/api/video/thumbnail/12?x=1']) {
      await expect400(video({ thumbnailUrl: bad }), /Thumbnail URL must be an http\(s\) URL/);
    }
  });

  it('refuses URLs that are not http(s)', async () => {
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'ftp://example.com/v', 'tiktok.com/@a/video/1']) {
      await expect400(video({ videoUrl: bad }), /Video URL must be an http\(s\) URL/);
      await expect400(video({ thumbnailUrl: bad }), /Thumbnail URL must be an http\(s\) URL/);
    }
  });

  it('lists highest score first, filters by platform, and refuses an unknown filter', async () => {
    const local = await createTestApp({ db, env });
    try {
      const a = await signUp(local, { pro: true });
      const b = await signUp(local, { pro: true });
      const first = await (await a.post('/api/trending-videos', video({ title: 'Old tiktok' }))).json();
      const insta = await (
        await a.post('/api/trending-videos', video({ title: 'Insta', platform: 'instagram' }))
      ).json();
      const newest = await (await a.post('/api/trending-videos', video({ title: 'New tiktok' }))).json();
      await b.patch(`/api/trending-videos/${first.id}/score`, { trendingScore: 1 });
      const all = await (await a.get('/api/trending-videos')).json();
      expect(all.map((v: { title: string }) => v.title)).toEqual(['Old tiktok', 'New tiktok', 'Insta']);
      const tiktok = await (await a.get('/api/trending-videos?platform=tiktok')).json();
      expect(tiktok.map((v: { id: number }) => v.id)).toEqual([first.id, newest.id]);
      const ig = await (await a.get('/api/trending-videos?platform=instagram')).json();
      expect(ig.map((v: { id: number }) => v.id)).toEqual([insta.id]);
      // boosted is per viewer.
      expect((await (await b.get('/api/trending-videos')).json())[0].boosted).toBe(true);
      expect(all[0].boosted).toBe(false);
      const bad = await a.get('/api/trending-videos?platform=myspace');
      expect(bad.status).toBe(400);
    } finally {
      await local.close();
    }
  });

  it('boosts by exactly 1 whatever number the body carries; a second boost is 409', async () => {
    const c = await signUp(t, { pro: true });
    const { id } = await (await c.post('/api/trending-videos', video())).json();
    const res = await c.patch(`/api/trending-videos/${id}/score`, { trendingScore: 1000 });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, trendingScore: 1, boosted: true });
    const again = await c.patch(`/api/trending-videos/${id}/score`, { trendingScore: 2 });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      message: 'You have already boosted this video.',
      code: 'trending.already_boosted',
    });
    expect((await c.patch('/api/trending-videos/987654/score', {})).status).toBe(404);
    expect((await c.patch('/api/trending-videos/nope/score', {})).status).toBe(400);
  });

  it('counts 20 parallel boosts by 20 users as 20, and 20 parallel boosts by one user as 1', async () => {
    const curator = await signUp(t, { pro: true });
    const { id } = await (await curator.post('/api/trending-videos', video({ title: 'Parallel' }))).json();
    const users = await Promise.all(Array.from({ length: 20 }, () => signUp(t, { pro: true })));
    const results = await Promise.all(
      users.map((u) => u.patch(`/api/trending-videos/${id}/score`, { trendingScore: 1 })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const scores = await Promise.all(results.map(async (r) => (await r.json()).trendingScore));
    expect(new Set(scores).size).toBe(20); // each saw its own increment
    const one = await signUp(t, { pro: true });
    const same = await Promise.all(
      Array.from({ length: 20 }, () => one.patch(`/api/trending-videos/${id}/score`, { trendingScore: 1 })),
    );
    expect(same.filter((r) => r.status === 200)).toHaveLength(1);
    expect(same.filter((r) => r.status === 409)).toHaveLength(19);
    const list = await (await curator.get('/api/trending-videos')).json();
    expect(list.find((v: { id: number }) => v.id === id).trendingScore).toBe(21);
  });

  it('lets the curator or an admin delete, not another Pro user', async () => {
    const curator = await signUp(t, { pro: true });
    const other = await signUp(t, { pro: true });
    // A password sign-up of an ADMIN_EMAILS address is not an admin (unverified); the CLI grants it.
    const admin = await signUp(t, { pro: true, email: 'boss@example.com' });
    await t.ctx.services.admin.run({ command: 'user:grant-admin', email: 'boss@example.com' });
    const one = await (await curator.post('/api/trending-videos', video({ title: 'Delete me' }))).json();
    const two = await (await curator.post('/api/trending-videos', video({ title: 'Admin deletes me' }))).json();
    const denied = await other.delete(`/api/trending-videos/${one.id}`);
    expect(denied.status).toBe(403);
    expect((await denied.json()).message).toBe('Only the curator or an administrator can remove this video.');
    expect((await curator.delete(`/api/trending-videos/${one.id}`)).status).toBe(200);
    expect((await admin.delete(`/api/trending-videos/${two.id}`)).status).toBe(200);
    expect((await curator.delete(`/api/trending-videos/${one.id}`)).status).toBe(404);
    const ids = (await (await curator.get('/api/trending-videos')).json()).map((v: { id: number }) => v.id);
    expect(ids).not.toContain(one.id);
    expect(ids).not.toContain(two.id);
  });
});

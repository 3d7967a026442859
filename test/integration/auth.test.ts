import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../src/server/db/schema.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';

describe.each(DB_KINDS)('accounts and sessions (%s)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db });
  });
  afterAll(() => t.close());

  it('answers health after a database round trip', async () => {
    const res = await t.client().get('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('is 401 signed out, then registers, signs in with a new session id, and signs out', async () => {
    const c = t.client();
    expect((await c.get('/api/auth/user')).status).toBe(401);
    const reg = await c.post('/api/auth/register', {
      email: 'Maya@Example.com',
      password: 'long enough',
      firstName: 'Maya',
    });
    expect(reg.status).toBe(201);
    const firstSid = c.cookies.get('smt.sid');
    expect(firstSid).toBeTruthy();
    const me = await (await c.get('/api/auth/user')).json();
    expect(me).toMatchObject({
      email: 'maya@example.com',
      firstName: 'Maya',
      subscriptionStatus: 'free',
      isPro: false,
      isAdmin: false,
    });

    const login = await c.post('/api/auth/login', { email: 'maya@example.com', password: 'long enough' });
    expect(login.status).toBe(200);
    expect(c.cookies.get('smt.sid')).not.toBe(firstSid);

    const out = await c.post('/api/logout');
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/');
    expect((await c.get('/api/auth/user')).status).toBe(401);
  });

  it('reads the signed-in user with the session on every request: fresh, switched, or gone', async () => {
    const c = t.client();
    await c.post('/api/auth/register', { email: 'fresh@example.com', password: 'long enough' });
    await t.client().post('/api/auth/register', { email: 'other@example.com', password: 'long enough' });
    await t.ctx.db.update(users).set({ firstName: 'Renamed' }).where(eq(users.email, 'fresh@example.com'));
    expect(await (await c.get('/api/auth/user')).json()).toMatchObject({
      email: 'fresh@example.com',
      firstName: 'Renamed',
    });
    // Signing in as someone else in the same browser: the next request is the new account.
    expect((await c.post('/api/auth/login', { email: 'other@example.com', password: 'long enough' })).status).toBe(200);
    expect(await (await c.get('/api/auth/user')).json()).toMatchObject({ email: 'other@example.com' });
    await t.ctx.db.delete(users).where(eq(users.email, 'other@example.com'));
    expect((await c.get('/api/auth/user')).status).toBe(401);
  });

  it('refuses a taken email, a malformed email and a short password', async () => {
    const c = t.client();
    await c.post('/api/auth/register', { email: 'dup@example.com', password: 'long enough' });
    const dup = await t.client().post('/api/auth/register', { email: 'dup@example.com', password: 'long enough' });
    expect(dup.status).toBe(409);
    expect((await dup.json()).code).toBe('auth.email_taken');
    const bad = await t.client().post('/api/auth/register', { email: 'not-an-email', password: 'long enough' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/valid email/);
    const short = await t.client().post('/api/auth/register', { email: 'short@example.com', password: '1234567' });
    expect(short.status).toBe(400);
    expect((await short.json()).message).toMatch(/at least 8/);
  });

  it('gives the same answer for a wrong password and an unknown email', async () => {
    await t.client().post('/api/auth/register', { email: 'known@example.com', password: 'long enough' });
    const wrong = await t.client().post('/api/auth/login', { email: 'known@example.com', password: 'wrong password' });
    const unknown = await t
      .client()
      .post('/api/auth/login', { email: 'nobody@example.com', password: 'wrong password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it('refuses state changes without a same-origin Origin header', async () => {
    const missing = await fetch(`${t.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@b.co', password: 'x' }),
    });
    expect(missing.status).toBe(403);
    expect((await missing.json()).code).toBe('auth.bad_origin');
    const foreign = await t
      .client()
      .post('/api/auth/login', { email: 'a@b.co', password: 'x' }, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
  });

  it('answers malformed JSON with 400 and unknown API paths with 404 JSON, without stack traces', async () => {
    const res = await t.client().post('/api/auth/login', '{"email":', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.code).toBe('request.malformed_json');
    expect(JSON.stringify(body)).not.toMatch(/at .*\.js/);
    const missing = await t.client().get('/api/does-not-exist');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Not found.', code: 'not_found' });
  });

  it('rate-limits sign-in attempts per email', async () => {
    let last = 0;
    for (let i = 0; i < 12; i++) {
      last = (await t.client().post('/api/auth/login', { email: 'target@example.com', password: `guess-${i}` })).status;
    }
    expect(last).toBe(429);
  });

  it('reports the free plan status from the download count', async () => {
    const c = await t.signUp({ downloadCount: 5 });
    const status = await (await c.get('/api/subscription/status')).json();
    expect(status).toMatchObject({ downloadCount: 5, isProUser: false, canDownload: true, remainingDownloads: 1 });
    const pro = await t.signUp({ pro: true, downloadCount: 9 });
    expect(await (await pro.get('/api/subscription/status')).json()).toMatchObject({
      isProUser: true,
      canDownload: true,
      remainingDownloads: 0,
    });
  });
});

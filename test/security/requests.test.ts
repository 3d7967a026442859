// Attacks on requests, each of which got through before (issue 18): an encoded /api path past the
// Origin check, a cross-site logout, NUL characters reaching the database, login lock-outs of the
// real owner, and a trickled request body holding a connection open.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { MemoryStore, RateLimiter } from '../../src/server/lib/rate-limiter.js';

const EVIL = { origin: 'https://evil.example' };

describe.each(DB_KINDS)('request attacks (%s)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db, env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => t.close());

  it('refuses a cross-site POST to an encoded /api path (the router decodes %61 to a)', async () => {
    const victim = await t.signUp();
    for (const p of ['/%61pi/subscription/cancel', '/%61%70%69/subscription/cancel', '/%61pi/auth/login']) {
      const res = await victim.post(p, {}, EVIL);
      expect(res.status, p).toBe(403);
      expect((await res.json()).code).toBe('auth.bad_origin');
    }
    // The same call from this site is routed and answered normally (no subscription to cancel).
    expect((await victim.post('/%61pi/subscription/cancel')).status).not.toBe(403);
    // Without any Origin, a state change is refused too; the webhook (signed by PayPal) is exempt.
    const bare = await fetch(`${t.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(bare.status).toBe(403);
    const hook = await fetch(`${t.baseUrl}/api/webhooks/paypal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(hook.status).not.toBe(403);
  });

  it('signs out only by a same-site POST; a GET shows a confirm page and changes nothing', async () => {
    const c = await t.signUp();
    const page = await c.get('/api/logout');
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<form method="post" action="\/api\/logout"/);
    expect((await c.get('/api/auth/user')).status).toBe(200);
    expect((await c.post('/api/logout', undefined, EVIL)).status).toBe(403);
    expect((await c.get('/api/auth/user')).status).toBe(200);
    // What the nav's plain form button sends: an empty urlencoded body.
    const out = await c.request('POST', '/api/logout', '', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(out.status).toBe(303);
    expect((await c.get('/api/auth/user')).status).toBe(401);
  });

  it('refuses NUL characters in any text field with a 400, never a 500', async () => {
    const pro = await t.signUp({ pro: true });
    const attempts: Array<[string, Promise<Response>]> = [
      [
        'register name',
        t
          .client()
          .post('/api/auth/register', { email: 'nul@example.com', password: 'long enough', firstName: 'a\u0000b' }),
      ],
      ['login email', t.client().post('/api/auth/login', { email: 'a\u0000@example.com', password: 'x' })],
      ['blog title', pro.post('/api/blog/posts', { title: 'Hi\u0000', content: 'Body text' })],
      ['blog content', pro.post('/api/blog/posts', { title: 'Hi', content: 'Body\u0000text' })],
      [
        'trending title',
        pro.post('/api/trending-videos', {
          title: 'T\u0000',
          videoUrl: 'https://www.tiktok.com/@a/video/7504044860782021930',
        }),
      ],
      ['video url', pro.post('/api/video/info', { url: 'https://www.tiktok.com/@a/video/1\u0000' })],
      ['public post slug', t.client().get('/api/blog/public/%00')],
    ];
    for (const [what, pending] of attempts) {
      const res = await pending;
      expect(res.status, what).toBe(400);
      expect(await res.json(), what).toEqual({
        code: 'request.nul_character',
        message: 'Text must not contain NUL characters (U+0000).',
      });
    }
  });

  it('limits wrong passwords per (IP, email): an attacker elsewhere cannot lock the owner out', async () => {
    const owner = await t.signUp();
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    let last: Response | undefined;
    for (let i = 0; i < 11; i++)
      last = await t
        .client()
        .post('/api/auth/login', { email: owner.email, password: 'wrong password' }, from('203.0.113.7'));
    expect(last!.status).toBe(429);
    const real = await t
      .client()
      .post('/api/auth/login', { email: owner.email, password: 'correct horse battery' }, from('198.51.100.20'));
    expect(real.status).toBe(200);
  });

  it('cuts off a request body trickled one byte at a time within a minute', { timeout: 90_000 }, async () => {
    const { port } = new URL(t.baseUrl);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ` +
        `${t.baseUrl}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{`,
    );
    const started = Date.now();
    const timer = setInterval(() => socket.writable && socket.write(' '), 2_000);
    let answer = '';
    socket.on('data', (d) => (answer += d.toString()));
    await new Promise((r) => socket.once('close', r));
    clearInterval(timer);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(answer).toMatch(/^(HTTP\/1\.1 408|$)/);
  });
});

describe('connection ceiling per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { CONNECTIONS_PER_IP: '5' } });
  });
  afterAll(() => t.close());

  it('closes connections beyond the ceiling and serves again once they are gone', async () => {
    const { port } = new URL(t.baseUrl);
    const open = await Promise.all(
      Array.from(
        { length: 8 },
        () =>
          new Promise<net.Socket>((resolve) => {
            const s = net.connect(Number(port), '127.0.0.1', () => resolve(s));
          }),
      ),
    );
    const closed = await Promise.all(
      open.map(
        (s) =>
          new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), 1_000);
            s.once('close', () => {
              clearTimeout(timer);
              resolve(true);
            });
          }),
      ),
    );
    expect(closed.filter(Boolean).length).toBe(3);
    for (const s of open) s.destroy();
    await new Promise((r) => setTimeout(r, 50));
    expect((await t.client().get('/api/health')).status).toBe(200);
  });
});

describe('rate limiter memory', () => {
  it('never holds more keys than its bound, whatever the flood', async () => {
    const store = new MemoryStore(100);
    const limiter = new RateLimiter('signIns', 10, 15 * 60_000, store);
    for (let i = 0; i < 10_000; i++) await limiter.hit(`email:${i}@example.com`);
    expect(store.size).toBeLessThanOrEqual(100);
    // A key still inside its window keeps counting.
    for (let i = 0; i < 11; i++) await limiter.hit('email:target');
    expect(await limiter.hit('email:target')).toBeGreaterThan(0);
  });
});

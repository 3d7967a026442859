// One voice for errors (issue 31 item 6): one wording per case on every tool, limits that say what
// is wrong, and every answer (the framework's own refusals too) in the catalogue's envelope.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { isErrorCode, renderError } from '../../src/shared/error-messages.js';

/** A raw HTTP exchange, for requests fetch() will not send (oversized or broken request lines). */
function rawExchange(baseUrl: string, request: string): Promise<{ status: number; body: string }> {
  const port = Number(new URL(baseUrl).port);
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (d) => (text += d));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), body: rest.join('\r\n\r\n') });
    });
  });
}

/** The catalogue's envelope: a known code whose template renders exactly the message sent. */
function expectEnvelope(body: string, status: number, expectedStatus: number, code: string) {
  expect(status).toBe(expectedStatus);
  const json = JSON.parse(body) as { message: string; code: string; params?: Record<string, string> };
  expect(json.code).toBe(code);
  expect(isErrorCode(json.code)).toBe(true);
  expect(json.message).toBe(renderError(json.code, json.params));
  expect(Object.keys(json).sort()).toEqual(json.params ? ['code', 'message', 'params'] : ['code', 'message']);
}

describe.each(DB_KINDS)('one voice for errors (%s)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db });
  });
  afterAll(() => t.close());

  it('answers a missing, malformed, too long or unknown link in one wording on every tool', async () => {
    const pro = await t.signUp({ pro: true });
    const tools = [
      (url?: string) => pro.post('/api/video/info', { url }),
      (url?: string) => pro.post('/api/video/download', { url, quality: 'hd' }),
      (url?: string) => pro.post('/api/audio/extract', { url }),
      (url?: string) => pro.post('/api/transcription/generate', { url }),
    ];
    const long = `https://www.tiktok.com/@a/video/1?${'x'.repeat(3000)}`;
    const links = ['https://example.com/x', 'nonsense', 'https://www.instagram.com/reel/abc/', long, '', '   '];
    for (const url of [...links, undefined, 42 as unknown as string]) {
      for (const [i, tool] of tools.entries()) {
        const res = await tool(url);
        expect([res.status, await res.json()], `${i} ${url}`).toEqual([
          400,
          {
            code: 'link.unsupported',
            message: 'Please provide a valid TikTok or Bluesky or Reddit URL',
            params: { variant: 'provide', platforms: 'TikTok or Bluesky or Reddit' },
          },
        ]);
      }
    }
    for (const url of links.slice(0, 3)) {
      const batch = await (await pro.post('/api/batch', { urls: [url] })).json();
      expect(batch.items[0].error).toEqual({
        code: 'link.unsupported',
        message: 'Please provide a valid TikTok or Bluesky or Reddit URL',
      });
    }
  });

  it('says a 100,000-character title is too long, not that it is missing', async () => {
    const pro = await t.signUp({ pro: true });
    const long = 'a'.repeat(100_000);
    const answers = [
      await pro.post('/api/ai/hashtags', { videoTitle: long, platform: 'social media' }),
      await pro.post('/api/blog/posts', { title: long, content: 'Body' }),
      await pro.post('/api/trending-videos', { title: long, videoUrl: 'https://example.com/v', platform: 'tiktok' }),
    ];
    for (const res of answers) {
      const body = await res.json();
      expect(res.status).toBe(400);
      expect(body.message).toMatch(/too long|at most/i);
      expect(body.message).not.toMatch(/required/i);
    }
  });

  it('refuses an email whose local part is over 64 characters or whose address is over 254', async () => {
    const register = (email: string) =>
      t.client().post('/api/auth/register', { email, password: 'correct horse battery' });
    for (const email of [`${'a'.repeat(300)}@example.com`, `${'a'.repeat(65)}@example.com`]) {
      const res = await register(email);
      expect([res.status, (await res.json()).message], email).toEqual([400, 'Please enter a valid email address']);
    }
    const longDomain = `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(57)}.com`;
    expect(longDomain.length).toBe(255);
    const tooLong = await register(longDomain);
    expect([tooLong.status, (await tooLong.json()).message]).toEqual([400, 'Please enter a valid email address']);
    expect((await register(`${'a'.repeat(64)}@example.com`)).status).toBe(201);
  });

  it("answers the framework's own refusals in the envelope", async () => {
    for (const p of ['/blog/%ff%fe', '/api/blog/public/%ff%fe']) {
      const res = await fetch(t.baseUrl + p);
      expectEnvelope(await res.text(), res.status, 400, 'request.bad_url');
    }
    const longParam = await fetch(`${t.baseUrl}/api/video/thumbnail/${'a'.repeat(200)}`);
    expectEnvelope(await longParam.text(), longParam.status, 414, 'request.uri_too_long');

    const bigHeaders = await rawExchange(
      t.baseUrl,
      `GET /${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expectEnvelope(bigHeaders.body, bigHeaders.status, 431, 'request.headers_too_large');
    const broken = await rawExchange(t.baseUrl, 'GET /x HTTP/1.1\r\nHost x\r\nConnection: close\r\n\r\n');
    expectEnvelope(broken.body, broken.status, 400, 'request.unreadable');

    const c = await t.signUp({ pro: true });
    const big = await c.post('/api/ai/hashtags', { videoTitle: 'a'.repeat(2_000_000) });
    expectEnvelope(await big.text(), big.status, 413, 'request.fst_err_ctp_body_too_large');
    const badJson = await c.request('POST', '/api/ai/hashtags', '{x', { 'content-type': 'application/json' });
    expectEnvelope(await badJson.text(), badJson.status, 400, 'request.malformed_json');
    const xml = await c.request('POST', '/api/ai/hashtags', '<x/>', { 'content-type': 'text/xml' });
    expectEnvelope(await xml.text(), xml.status, 415, 'request.fst_err_ctp_invalid_media_type');
  });

  it('answers an oversized request and then closes it, even while the client keeps sending', async () => {
    // A client that does not close its side when the server does (allowHalfOpen) and goes on sending.
    const socket = net.connect({ port: Number(new URL(t.baseUrl).port), host: '127.0.0.1', allowHalfOpen: true });
    await new Promise((r) => socket.once('connect', r));
    socket.on('error', () => {}); // the server cuts it off: a reset or a broken pipe is the expected end
    socket.write(`GET /${'a'.repeat(70_000)}`);
    const more = setInterval(() => socket.writable && socket.write('a'.repeat(1000)), 20);
    let text = '';
    socket.on('data', (d) => (text += d));
    await new Promise((r) => socket.once('close', r));
    clearInterval(more);
    const [head, body] = text.split('\r\n\r\n');
    expectEnvelope(body, Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), 431, 'request.headers_too_large');
  });
});

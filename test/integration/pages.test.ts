// Issue 31, items 5 and 9, where headers and status are what matter: the built client sent
// compressed (brotli, else gzip, as precompressed at build time), /blog/<unknown or draft> a 404,
// a CSP that lets pages load pictures only from this site, the image relay (signed links only,
// images only), the footer pages' texts, and "who am I" answering 200 when signed out.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { precompress } from '../../scripts/precompress.mjs';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const INDEX =
  '<!doctype html><html lang="en"><head><title>Shell</title>' +
  `${'<meta name="x" content="padding" />'.repeat(30)}</head><body><div id="root"></div></body></html>`;
const SCRIPT = `console.log(${JSON.stringify('landing '.repeat(400))});`;

describe.each(DB_KINDS)('pages (%s)', (db) => {
  let t: TestApp;
  let clientDir: string;
  let pagesDir: string;
  let pictures: http.Server;
  const asked: string[] = [];

  beforeAll(async () => {
    clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-'));
    fs.mkdirSync(path.join(clientDir, 'assets'));
    fs.writeFileSync(path.join(clientDir, 'index.html'), INDEX);
    fs.writeFileSync(path.join(clientDir, 'assets', 'index-abc123.js'), SCRIPT);
    expect(precompress(clientDir)).toBe(4);
    expect(precompress(clientDir)).toBe(0); // nothing changed: nothing rewritten
    pagesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pages-'));
    fs.writeFileSync(path.join(pagesDir, 'terms.md'), '## House rules\n\nBe kind. <script>alert(1)</script>');
    pictures = http.createServer((req, res) => {
      asked.push(req.url ?? '');
      if (req.url === '/page.html') return res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>');
      if (req.url === '/fake.png') return res.writeHead(200, { 'content-type': 'image/png' }).end('<svg onload=x>');
      if (req.url === '/pic.svg') return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg/>');
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    });
    await new Promise<void>((r) => pictures.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(pictures.address() as AddressInfo).port}`;
    t = await createTestApp({
      db,
      clientDir,
      env: {
        UPSTREAM_HOST_MAP: JSON.stringify({ 'pics.example.com': origin }),
        SITE_PAGES_DIR: pagesDir,
        CONTACT_EMAIL: 'owner@example.org',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => pictures?.close(r));
    fs.rmSync(clientDir, { recursive: true, force: true });
    fs.rmSync(pagesDir, { recursive: true, force: true });
  });

  /** The bytes as sent (fetch would undo the compression). */
  const raw = (p: string, encoding?: string) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .get(t.baseUrl + p, { headers: encoding ? { 'accept-encoding': encoding } : {} }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        })
        .on('error', reject);
    });

  it('sends the built client brotli- or gzip-compressed as the browser accepts, identity otherwise', async () => {
    for (const p of ['/assets/index-abc123.js', '/', '/trends', '/no-such-page']) {
      const br = await raw(p, 'gzip, deflate, br');
      expect(br.headers['content-encoding'], p).toBe('br');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      const plain = zlib.brotliDecompressSync(br.body).toString();
      expect(plain).toBe(p.startsWith('/assets') ? SCRIPT : INDEX);
      expect(br.body.length).toBeLessThan(plain.length / 3);

      const gz = await raw(p, 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(gz.body).toString()).toBe(plain);

      const none = await raw(p);
      expect(none.headers['content-encoding']).toBeUndefined();
      expect(none.body.toString()).toBe(plain);
    }
    expect((await raw('/no-such-page', 'br')).status).toBe(404);
    expect((await raw('/trends', 'br')).status).toBe(200);
  });

  it('answers /blog/<slug> 404 for an unknown slug and for a draft, 200 for a published post', async () => {
    const c = await t.signUp();
    await c.post('/api/blog/posts', { title: 'Draft here', content: 'x', status: 'draft' });
    await c.post('/api/blog/posts', { title: 'Out now', content: 'x', status: 'published' });
    for (const slug of ['no-such-post', 'draft-here']) {
      const res = await raw(`/blog/${slug}`, 'br');
      expect(res.status, slug).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
    const published = await t.client().get('/blog/out-now');
    expect(published.status).toBe(200);
    expect(await published.text()).toContain('<title>Out now | Social Media Toolkit</title>');
  });

  it('lets pages load pictures only from this site', async () => {
    const csp = String((await raw('/')).headers['content-security-policy']);
    const imgSrc = csp.split(';').find((d) => d.trim().startsWith('img-src'));
    expect(imgSrc?.trim().split(/\s+/).slice(1).sort()).toEqual(["'self'", 'blob:', 'data:']);
  });

  it('relays the pictures of trending entries and blog posts through signed links, images only', async () => {
    const pro = await t.signUp({ pro: true });
    const created = await pro.post('/api/trending-videos', {
      title: 'Elsewhere',
      videoUrl: 'https://www.tiktok.com/@a/video/7000000000000000002',
      platform: 'tiktok',
      thumbnailUrl: 'https://pics.example.com/thumb.png',
    });
    expect(created.status).toBe(201);
    const [entry] = await (await pro.get('/api/trending-videos')).json();
    expect(entry.thumbnailUrl).toBe('https://pics.example.com/thumb.png');
    expect(entry.thumbnailSrc).toMatch(/^\/api\/images\?u=/);
    const image = await t.client().get(entry.thumbnailSrc);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);

    const post = await (
      await pro.post('/api/blog/posts', {
        title: 'With pictures',
        content: '![a](https://pics.example.com/inline.png)',
        featuredImage: 'https://pics.example.com/featured.png',
        status: 'published',
      })
    ).json();
    expect(post.featuredImageSrc).toMatch(/^\/api\/images\?u=https%3A%2F%2Fpics\.example\.com%2Ffeatured\.png&s=/);
    const pub = await (await t.client().get('/api/blog/public/with-pictures')).json();
    expect(pub.featuredImageSrc).toBe(post.featuredImageSrc);
    expect(pub.html).toMatch(
      /<img [^>]*src="\/api\/images\?u=https%3A%2F%2Fpics\.example\.com%2Finline\.png&amp;s=[\w-]+"/,
    );
    expect(pub.html).not.toContain('src="https://');

    // Not an open proxy: a link this server did not sign, or a signature for another URL, is refused.
    const signature = new URL(entry.thumbnailSrc, t.baseUrl).searchParams.get('s');
    const forged = `/api/images?u=${encodeURIComponent('https://pics.example.com/other.png')}&s=${signature}`;
    expect((await t.client().get(forged)).status).toBe(404);
    expect((await t.client().get('/api/images?u=x')).status).toBe(400);
    expect(asked).not.toContain('/other.png');
    // Only raster pictures: a page, an SVG, or "image/png" that is not one, is refused naming what came.
    for (const [file, says] of [
      ['page.html', 'text/html'],
      ['pic.svg', 'image/svg+xml'],
      ['fake.png', 'did not name properly'],
    ]) {
      const c = await pro.post('/api/trending-videos', {
        title: file,
        videoUrl: 'https://www.tiktok.com/@a/video/7000000000000000003',
        platform: 'tiktok',
        thumbnailUrl: `https://pics.example.com/${file}`,
      });
      const src = (await c.json()).thumbnailSrc;
      const refused = await t.client().get(src);
      expect(refused.status, file).toBe(424);
      expect(refused.headers.get('content-type'), file).toMatch(/^application\/json/);
      const body = await refused.json();
      expect(body.code, file).toBe('upstream.not_media');
      expect(body.message, file).toContain(says);
    }
  });

  it("serves the footer pages: the operator's text, else defaults naming the contact address", async () => {
    const terms = await (await t.client().get('/api/pages/terms')).json();
    expect(terms).toMatchObject({ name: 'terms', title: 'Terms', custom: true });
    expect(terms.html).toContain('<h2>House rules</h2>');
    expect(terms.html).not.toContain('<script');
    const privacy = await (await t.client().get('/api/pages/privacy')).json();
    expect(privacy).toMatchObject({ title: 'Privacy Policy', custom: false });
    expect(privacy.html).toContain('owner@example.org');
    expect((await t.client().get('/api/pages/secrets')).status).toBe(404);
  });

  it('answers "who am I" with 200 when signed out, and the user when signed in', async () => {
    const anon = await t.client().get('/api/auth/session');
    expect(anon.status).toBe(200);
    expect(await anon.json()).toEqual({ user: null });
    const c = await t.signUp();
    const me = await (await c.get('/api/auth/session')).json();
    expect(me.user).toMatchObject({ id: c.userId, email: c.email });
    // The founding endpoint is unchanged (decision 0092 'Calls').
    expect((await t.client().get('/api/auth/user')).status).toBe(401);
  });
});

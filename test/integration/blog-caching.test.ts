// Issue 42, finding 7: a public post's JSON and page are answers prepared once per version of the post:
// validators (ETag, 304), a public cache rule that revalidates, compressed bodies chosen by
// Accept-Encoding; a new version (an edit here or on another node, an unpublish, a delete) is seen
// by the next request; drafts are never answered with anything a cache may keep.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';

const SHELL =
  '<!doctype html><html lang="en"><head><title>App</title><meta name="description" content="generic" />' +
  `${'<meta name="x" content="padding" />'.repeat(40)}</head><body><div id="root"></div></body></html>`;
const REVALIDATE = 'public, max-age=0, must-revalidate';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}
/** A request with the body as sent (Node's http does not decompress, unlike fetch). */
function raw(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}
function decoded(r: Raw): string {
  const enc = r.headers['content-encoding'];
  if (enc === 'br') return zlib.brotliDecompressSync(r.body).toString();
  if (enc === 'gzip') return zlib.gunzipSync(r.body).toString();
  expect(enc).toBeUndefined();
  return r.body.toString();
}

describe.each(DB_KINDS)('blog answers kept per version (%s)', (db) => {
  let t: TestApp;
  let seq = 0;
  beforeAll(async () => {
    const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-blog-cache-'));
    fs.writeFileSync(path.join(clientDir, 'index.html'), SHELL);
    t = await createTestApp({ db, clientDir });
  });
  afterAll(() => t.close());

  /** A published post long enough to be compressed, by a new author. */
  async function publish(words: string) {
    const c = await t.signUp();
    const slug = `kept-${++seq}-${Date.now()}`;
    const content = `# ${words}\n\n${'A paragraph & some *words* of the post.\n\n'.repeat(200)}`;
    const res = await c.post('/api/blog/posts', { title: words, slug, content, status: 'published' });
    expect(res.status).toBe(201);
    return { c, slug, id: (await res.json()).id as number, content };
  }

  it('sends the JSON compressed as asked, with a validator, and 304 to a browser that has it', async () => {
    const { slug } = await publish('Compressed words');
    const url = `${t.baseUrl}/api/blog/public/${slug}`;
    const br = await raw(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe(REVALIDATE);
    expect(br.headers['content-type']).toBe('application/json; charset=utf-8');
    const etag = String(br.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    const post = JSON.parse(decoded(br));
    expect(post).toMatchObject({ slug, title: 'Compressed words' });
    expect(post.html).toContain('<h1>Compressed words</h1>');
    expect(post.html).toContain('A paragraph &amp; some <em>words</em>');
    expect(br.body.length).toBeLessThan(Buffer.byteLength(JSON.stringify(post)) / 4);

    const gz = await raw(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(gz))).toEqual(post);
    const plain = await raw(url);
    expect(JSON.parse(decoded(plain))).toEqual(post);
    expect(plain.headers.etag).toBe(etag);

    for (const inm of [etag, `"x", ${etag}`, etag.replace(/^W\//, '')]) {
      const again = await raw(url, { 'accept-encoding': 'br', 'if-none-match': inm });
      expect(again.status, inm).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe(REVALIDATE);
    }
    expect((await raw(url, { 'if-none-match': 'W/"other"' })).status).toBe(200);
  });

  it('sends the page /blog/<slug> the same way, with the post in its preview tags', async () => {
    const { slug } = await publish('Page words');
    const url = `${t.baseUrl}/blog/${slug}`;
    const br = await raw(url, { 'accept-encoding': 'br, gzip' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe(REVALIDATE);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    const html = decoded(br);
    expect(html).toContain('<title>Page words | Social Media Toolkit</title>');
    expect(html).not.toContain('<title>App</title>');
    const gz = await raw(url, { 'accept-encoding': 'gzip' });
    expect(decoded(gz)).toBe(html);
    const again = await raw(url, { 'accept-encoding': 'br, gzip', 'if-none-match': String(br.headers.etag) });
    expect(again.status).toBe(304);
    // The page and the JSON are different answers: their validators differ.
    const json = await raw(`${t.baseUrl}/api/blog/public/${slug}`);
    expect(json.headers.etag).not.toBe(br.headers.etag);
  });

  it('answers a new version after an edit, here or on another node, never the kept one', async () => {
    const { c, slug, id } = await publish('Before edit');
    const url = `${t.baseUrl}/api/blog/public/${slug}`;
    const page = `${t.baseUrl}/blog/${slug}`;
    const first = await raw(url, { 'accept-encoding': 'br' });
    const firstPage = await raw(page, { 'accept-encoding': 'br' });
    const edited = await c.put(`/api/blog/posts/${id}`, {
      title: 'After edit',
      slug,
      content: `${'Edited & *new* words.\n\n'.repeat(100)}`,
      status: 'published',
    });
    expect(edited.status).toBe(200);
    const second = await raw(url, { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
    expect(second.status).toBe(200);
    expect(second.headers.etag).not.toBe(first.headers.etag);
    const post = JSON.parse(decoded(second));
    expect(post.title).toBe('After edit');
    expect(post.html).toContain('Edited &amp; <em>new</em> words.');
    const secondPage = await raw(page, { 'accept-encoding': 'br', 'if-none-match': String(firstPage.headers.etag) });
    expect(secondPage.status).toBe(200);
    expect(decoded(secondPage)).toContain('<title>After edit | Social Media Toolkit</title>');

    // Another node's edit reaches only the database: the next read here sees it.
    const row = await t.ctx.repos.blogPosts.findPublishedBySlug(slug);
    if (!row) throw new Error('post gone');
    const { id: _id, authorId, createdAt: _c, updatedAt: _u, ...fields } = row;
    const other = await t.ctx.repos.blogPosts.updateOwned(id, authorId, {
      ...fields,
      title: 'Edited elsewhere',
      contentHtml: '<p>From the other node</p>',
    });
    expect(other).not.toBe('missing');
    const third = await raw(url, { 'accept-encoding': 'gzip', 'if-none-match': String(second.headers.etag) });
    expect(third.status).toBe(200);
    expect(JSON.parse(decoded(third))).toMatchObject({ title: 'Edited elsewhere', html: '<p>From the other node</p>' });
    expect(decoded(await raw(page))).toContain('<title>Edited elsewhere | Social Media Toolkit</title>');
  });

  it('stops answering a post once unpublished or deleted, with nothing a cache may keep', async () => {
    const { c, slug, id, content } = await publish('Soon a draft');
    const url = `${t.baseUrl}/api/blog/public/${slug}`;
    const page = `${t.baseUrl}/blog/${slug}`;
    const kept = await raw(url, { 'accept-encoding': 'br' });
    const keptPage = await raw(page, { 'accept-encoding': 'br' });
    expect(kept.status).toBe(200);
    const unpublished = await c.put(`/api/blog/posts/${id}`, { title: 'Soon a draft', slug, content, status: 'draft' });
    expect(unpublished.status).toBe(200);
    for (const [u, etag] of [
      [url, kept.headers.etag],
      [page, keptPage.headers.etag],
    ]) {
      for (const headers of [{}, { 'if-none-match': String(etag) }, { 'if-none-match': '*' }] as Record<
        string,
        string
      >[]) {
        const gone = await raw(String(u), { 'accept-encoding': 'br', ...headers });
        expect(gone.status, `${u} ${JSON.stringify(headers)}`).toBe(404);
        // The page's 404 is the client's shell, with the shell's own validator.
        expect(gone.headers.etag).not.toBe(etag);
        expect(String(gone.headers['cache-control'] ?? '')).not.toMatch(/public/);
      }
    }
    expect((await raw(url)).headers['cache-control']).toBe('no-store');
    // Published again: a new version, then deleted: gone.
    await c.put(`/api/blog/posts/${id}`, { title: 'Back again', slug, content, status: 'published' });
    const back = await raw(url, { 'if-none-match': String(kept.headers.etag) });
    expect(back.status).toBe(200);
    expect(JSON.parse(decoded(back)).title).toBe('Back again');
    expect((await c.delete(`/api/blog/posts/${id}`)).status).toBe(200);
    expect((await raw(url, { 'if-none-match': String(back.headers.etag) })).status).toBe(404);
    expect((await raw(page)).status).toBe(404);
  });

  it('never answers a draft to anyone but its author, and the author list is private', async () => {
    const c = await t.signUp();
    const slug = `draft-${Date.now()}`;
    await c.post('/api/blog/posts', { title: 'Draft', slug, content: 'Not yet'.repeat(300) });
    for (const u of [`/api/blog/public/${slug}`, `/blog/${slug}`]) {
      const res = await raw(t.baseUrl + u, { 'accept-encoding': 'br' });
      expect(res.status, u).toBe(404);
      if (u.startsWith('/api/')) expect(res.headers.etag, u).toBeUndefined();
      expect(String(res.headers['cache-control'] ?? ''), u).not.toMatch(/public/);
    }
    const mine = await c.get('/api/blog/posts');
    expect(mine.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('gives many readers of a new version at once the same answer', async () => {
    const { slug } = await publish('Many readers');
    const url = `${t.baseUrl}/api/blog/public/${slug}`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => raw(url, { 'accept-encoding': 'br' })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.headers.etag)).size).toBe(1);
    expect(new Set(answers.map((a) => decoded(a))).size).toBe(1);
  });
});

// The built client served from memory (issue 38): read once at start, so a request does no file
// work; the encodings, validators and cache rules a browser relies on.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClientFiles } from '../../src/server/plugins/client-files.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-client-files-'));
const html = '<!doctype html><title>shell</title>'.repeat(40);
const js = 'console.log("hello");'.repeat(100);
const app = Fastify();

beforeAll(async () => {
  fs.mkdirSync(path.join(root, 'assets'));
  fs.writeFileSync(path.join(root, 'index.html'), html);
  fs.writeFileSync(path.join(root, 'index.html.br'), zlib.brotliCompressSync(html));
  fs.writeFileSync(path.join(root, 'index.html.gz'), zlib.gzipSync(html));
  fs.writeFileSync(path.join(root, 'assets', 'app-abc123.js'), js);
  fs.writeFileSync(path.join(root, 'assets', 'app-abc123.js.gz'), zlib.gzipSync(js));
  registerClientFiles(app, root);
  app.get('/missing-page', (_req, reply) => reply.status(404).sendFile('index.html'));
  await app.ready();
  // From here on the files are gone from disk: every answer below comes from memory.
  fs.rmSync(root, { recursive: true, force: true });
});
afterAll(() => app.close());

describe('client files from memory', () => {
  it('serves the shell at / and /index.html with the best encoding the browser accepts', async () => {
    const br = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(html);
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers.vary).toBe('accept-encoding');
    const gz = await app.inject({ url: '/index.html', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await app.inject({ url: '/index.html' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(html);
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(html));
  });

  it('hashed assets are immutable; a file without a brotli copy falls back to gzip', async () => {
    const res = await app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(js);
  });

  it('answers a matching If-None-Match with 304 and no body, and HEAD with headers only', async () => {
    const first = await app.inject({ url: '/' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await app.inject({ url: '/', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const head = await app.inject({ method: 'HEAD', url: '/assets/app-abc123.js' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(Number(head.headers['content-length'])).toBe(js.length);
  });

  it('sendFile keeps the status it is given and never answers 304 for it', async () => {
    const first = await app.inject({ url: '/' });
    const res = await app.inject({ url: '/missing-page', headers: { 'if-none-match': first.headers.etag as string } });
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe(html);
  });
});

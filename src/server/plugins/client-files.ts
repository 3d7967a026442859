// The built web client served from memory (issue 38). The client is a few megabytes and never
// changes while the server runs, so it is read once at start with its brotli and gzip copies
// (scripts/precompress.mjs). A page request then costs no file-system work: under 200 clients the
// stat/open/read calls per request (three encodings tried in turn) queued on libuv's four threads
// and made pages three times slower. Answers carry a strong ETag and answer If-None-Match with 304.
import type { PreparedAnswer } from '../lib/prepared-answer.js';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { firstScreens, type ReadSession } from './first-screens.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** A built client file, read into memory with its compressed copies once at start. */
export type ClientFile = PreparedAnswer;

function* walk(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(p);
    else if (entry.isFile() && !/\.(br|gz)$/.test(entry.name)) yield p;
  }
}

/** Every file of the built client by its URL path (`/assets/x.js`), with its compressed copies. */
export function loadClientFiles(root: string): Map<string, ClientFile> {
  const files = new Map<string, ClientFile>();
  for (const file of walk(root)) {
    const identity = fs.readFileSync(file);
    const copy = (ext: string) => (fs.existsSync(file + ext) ? fs.readFileSync(file + ext) : undefined);
    const url = `/${path.relative(root, file).split(path.sep).join('/')}`;
    files.set(url, {
      identity,
      br: copy('.br'),
      gzip: copy('.gz'),
      type: TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      etag: `"${crypto.createHash('sha1').update(identity).digest('base64url')}"`,
      // Hashed assets are immutable; everything else (index.html, sw.js, the manifest) is revalidated.
      cacheControl: url.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  }
  return files;
}

/** The encodings a client accepts, by the plain presence of their names (q=0 honoured). */
function accepts(header: string | undefined, encoding: 'br' | 'gzip'): boolean {
  if (!header) return false;
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (name.trim() !== encoding) continue;
    return !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p));
  }
  return false;
}

/** A prepared answer in the encoding the browser accepts, 304 to a matching If-None-Match. */
export function send(request: FastifyRequest, reply: FastifyReply, file: ClientFile) {
  reply.header('vary', 'accept-encoding').header('cache-control', file.cacheControl).header('etag', file.etag);
  const status = reply.statusCode;
  if (status === 200 && request.headers['if-none-match']?.split(/\s*,\s*/).includes(file.etag))
    return reply.status(304).send();
  const wanted = request.headers['accept-encoding'];
  const [body, encoding] =
    file.br && accepts(wanted, 'br')
      ? [file.br, 'br']
      : file.gzip && accepts(wanted, 'gzip')
        ? [file.gzip, 'gzip']
        : [file.identity, undefined];
  if (encoding) reply.header('content-encoding', encoding);
  reply.header('content-length', body.length).type(file.type);
  return reply.send(body);
}

declare module 'fastify' {
  interface FastifyReply {
    /**
     * A file of the built client (`index.html` for the app's shell, or a first screen sent ready in
     * its place), with the status already set.
     */
    sendFile(name: string): FastifyReply | Promise<FastifyReply>;
  }
}

/** A GET route (HEAD comes with it) per client file and `/` for the shell, plus `reply.sendFile(name)`. */
export function registerClientFiles(app: FastifyInstance, root: string, opts: { readSession?: ReadSession } = {}) {
  const files = loadClientFiles(root);
  const shell = files.get('/index.html');
  const readyScreen = shell ? firstScreens(app, root, shell.identity, opts.readSession) : () => null;
  // The shell, or the first screen sent ready for this request (first-screens.ts).
  const sendShell = (request: FastifyRequest, reply: FastifyReply, file: ClientFile) => {
    const screen = readyScreen(request);
    return screen ? screen.then((ready) => send(request, reply, ready ?? file)) : send(request, reply, file);
  };
  app.decorateReply('sendFile', function (this: FastifyReply, name: string) {
    const file = files.get(`/${name}`);
    if (!file) return this.status(404).type('text/plain').send('Not found');
    return name === 'index.html' ? sendShell(this.request, this, file) : send(this.request, this, file);
  });
  for (const [url, file] of files) {
    app.get(url, (request, reply) => send(request, reply, file));
    if (url === '/index.html') app.get('/', (request, reply) => sendShell(request, reply, file));
  }
}

// The first screens sent ready (decision 0074): the landing page, sign-in and the signed-in
// downloader are HTML the browser paints before any script runs, which React then hydrates. Each
// screen is rendered with React's server renderer (dist/ssr/entry-server.js, built from
// src/client/entry-server.tsx) once per process and variant, and kept in memory: a visitor's page
// is a prepared, compressed answer; a signed-in page adds only the session's few fields.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ClientFile } from './client-files.js';

type Seed = [queryKey: readonly unknown[], data: unknown];
type RenderScreen = (path: string, seeds: Seed[]) => Promise<string>;
interface ManifestChunk {
  file: string;
  imports?: string[];
}

/** What the signed-in first screen shows of a session: the user and the plan's downloads. */
export interface SessionFields {
  user: unknown;
  status: { isProUser: boolean; downloadCount: number; remainingDownloads: number };
}
export type ReadSession = (request: FastifyRequest) => Promise<SessionFields | null>;

/** The lazily loaded modules each screen needs at once (preloaded beside the shell's). */
const MODULES = {
  visitor: { '/': [], '/sign-in': ['pages/sign-in-page.tsx'] } as Record<string, string[]>,
  signedIn: ['signed-in-shell.tsx', 'pages/downloader-page.tsx'],
};
/** Signed-in variants (plan and counts) kept; beyond, the plain shell. */
const MAX_VARIANTS = 64;

/** JSON safe inside a `<script type="application/json">`: no `</script>`, no HTML comment. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The `<link rel="modulepreload">`s for modules and what they import, minus what the shell loads. */
function preloads(manifest: Record<string, ManifestChunk>, modules: string[]): string {
  const files = new Set<string>();
  const shellFiles = new Set<string>();
  const visit = (key: string, into: Set<string>) => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return;
    into.add(chunk.file);
    for (const i of chunk.imports ?? []) visit(i, into);
  };
  visit('index.html', shellFiles);
  for (const m of modules) visit(m, files);
  return [...files]
    .filter((f) => !shellFiles.has(f))
    .map((f) => `<link rel="modulepreload" crossorigin href="/${f}" fetchpriority="low">`)
    .join('');
}

/**
 * A ready screen paints without its scripts, so they are fetched at low priority (decision 0080):
 * the browser puts the page's own paint first, then hydrates.
 */
function scriptsAtLowPriority(html: string): string {
  return html.replace(/<(script type="module"|link rel="modulepreload")( crossorigin)?/g, '$& fetchpriority="low"');
}

const etag = (body: Buffer) => `"${crypto.createHash('sha1').update(body).digest('base64url')}"`;

/**
 * The ready screen for a request, or null for the plain shell: `/` (any query: the share target's
 * link is read after hydration) for a visitor or a signed-in person, `/sign-in` for a visitor (no
 * query: its error message comes from the query). Null when the server render is not built.
 */
export function firstScreens(app: FastifyInstance, clientDir: string, shell: Buffer, readSession?: ReadSession) {
  const ssrDir = path.join(clientDir, '..', 'ssr');
  const entry = path.join(ssrDir, 'entry-server.js');
  if (!fs.existsSync(entry)) return () => null;
  const manifest = JSON.parse(fs.readFileSync(path.join(ssrDir, 'client-manifest.json'), 'utf8'));
  const shellHtml = scriptsAtLowPriority(shell.toString('utf8'));
  const prepared = new Map<string, Promise<{ before: string; after: string } | null>>();
  const visitorFiles = new Map<string, Promise<ClientFile | null>>();

  // Answers that are the same for everyone, asked of the routes themselves (the browser's bytes).
  let common: Promise<Seed[]> | undefined;
  const commonSeeds = () => {
    const get = async (url: string) => (await app.inject({ url })).json();
    common ??= (async (): Promise<Seed[]> => [
      [['/api/platforms'], await get('/api/platforms')],
      [['/api/auth/providers'], await get('/api/auth/providers')],
    ])();
    return common;
  };

  /** The page around the JSON seeds: rendered once per key, with the seeds of the first to ask. */
  function template(key: string, screen: string, seeds: Seed[], modules: string[]) {
    let t = prepared.get(key);
    if (t) return t;
    if (prepared.size >= MAX_VARIANTS) return Promise.resolve(null);
    t = (async () => {
      try {
        const { renderScreen } = (await import(pathToFileURL(entry).href)) as { renderScreen: RenderScreen };
        const body = await renderScreen(screen, seeds);
        const [before, after] = shellHtml
          .replace('</head>', `${preloads(manifest, modules)}</head>`)
          .split('<div id="root"></div>');
        return {
          before: `${before}<div id="root">${body}</div><script type="application/json" id="first-screen">`,
          after: `</script>${after}`,
        };
      } catch (err) {
        // The plain shell still works: the client renders the screen itself.
        app.log.error({ err }, 'first screen render failed');
        return null;
      }
    })();
    prepared.set(key, t);
    return t;
  }

  /** A visitor's screen: one answer for everyone, compressed once. */
  function visitor(screen: string, year: number) {
    const key = `${screen} visitor ${year}`;
    let file = visitorFiles.get(key);
    if (!file) {
      file = (async () => {
        const seeds: Seed[] = [[['/api/auth/user'], null], ...(await commonSeeds())];
        const t = await template(key, screen, seeds, MODULES.visitor[screen]);
        if (!t) return null;
        const identity = Buffer.from(t.before + scriptJson({ path: screen, seeds }) + t.after);
        return {
          identity,
          br: zlib.brotliCompressSync(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
          gzip: zlib.gzipSync(identity, { level: 9 }),
          type: 'text/html; charset=utf-8',
          etag: etag(identity),
          cacheControl: 'no-cache',
        };
      })();
      visitorFiles.set(key, file);
    }
    return file;
  }

  /** The signed-in downloader: the variant for the plan and counts, this session's fields in its JSON. */
  async function signedIn(request: FastifyRequest, year: number): Promise<ClientFile | null> {
    const fields = await readSession?.(request);
    if (!fields) return null;
    const { isProUser, downloadCount, remainingDownloads } = fields.status;
    const s = { isProUser, downloadCount, remainingDownloads };
    const key = `/ ${s.isProUser ? 'pro' : `free ${s.downloadCount} ${s.remainingDownloads}`} ${year}`;
    const common = await commonSeeds();
    const seeds: Seed[] = [[['/api/auth/user'], fields.user], [['/api/subscription/status'], fields.status], ...common];
    // The render is shared by everyone with this plan and counts: it is made from no one's personal
    // fields (the screen shows none; should it ever, hydration puts this person's in, never another's).
    const t = await template(
      key,
      '/',
      [[['/api/auth/user'], {}], [['/api/subscription/status'], s], ...common],
      MODULES.signedIn,
    );
    if (!t) return null;
    const identity = Buffer.from(t.before + scriptJson({ path: '/', seeds }) + t.after);
    // Personal, so compressed per request, at a level that costs well under a millisecond.
    return {
      identity,
      br: zlib.brotliCompressSync(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }),
      type: 'text/html; charset=utf-8',
      etag: etag(identity),
      cacheControl: 'private, no-cache',
    };
  }

  return (request: FastifyRequest): Promise<ClientFile | null> | null => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    const [pathname, query] = request.url.split('?', 2);
    // The footer shows the year: a screen rendered last year is rendered again.
    const year = new Date().getFullYear();
    if (request.session?.data.userId) return pathname === '/' ? signedIn(request, year) : null;
    if (!Object.hasOwn(MODULES.visitor, pathname) || (pathname === '/sign-in' && query !== undefined)) return null;
    return visitor(pathname, year);
  };
}

// The first screens sent ready (decision 0074), against a stand-in server render: which requests get
// a ready screen, what goes in it, and that the JSON block cannot end its script early.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerClientFiles } from '../../src/server/plugins/client-files.js';
import { scriptJson } from '../../src/server/plugins/first-screens.js';

const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-first-screens-'));
const shell =
  '<!doctype html><html><head><title>t</title><script type="module" crossorigin src="/assets/index.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/runtime.js"></head><body><div id="root"></div></body></html>';
const app = Fastify();

beforeAll(async () => {
  fs.mkdirSync(path.join(dist, 'client'));
  fs.mkdirSync(path.join(dist, 'ssr'));
  fs.writeFileSync(path.join(dist, 'client', 'index.html'), shell);
  // The stand-in renders the path, the plan and any email it was given, and counts its renders.
  fs.writeFileSync(
    path.join(dist, 'ssr', 'entry-server.js'),
    `globalThis.__renders = 0;
     export async function renderScreen(path, seeds) {
       globalThis.__renders++;
       const status = seeds.find(([k]) => k[0] === '/api/subscription/status');
       const user = seeds.find(([k]) => k[0] === '/api/auth/user')?.[1];
       return '<main>screen ' + path + (status ? ' left ' + status[1].remainingDownloads : '') +
         (user?.email ? ' for ' + user.email : '') + '</main>';
     }`,
  );
  fs.writeFileSync(
    path.join(dist, 'ssr', 'client-manifest.json'),
    JSON.stringify({
      'index.html': { file: 'assets/index.js', imports: ['_shared.js'] },
      '_shared.js': { file: 'assets/shared.js' },
      'pages/sign-in-page.tsx': { file: 'assets/sign-in.js', imports: ['_shared.js'] },
    }),
  );
  app.get('/api/platforms', async () => [{ id: 'tiktok', name: '</script><!--' }]);
  app.get('/api/auth/providers', async () => ({ local: true, oidc: false }));
  // A session stand-in: the `user` header names the signed-in user and their downloads left.
  app.decorateRequest('session', null as never);
  app.addHook('onRequest', async (request) => {
    const user = request.headers.user as string | undefined;
    (request as unknown as { session: unknown }).session = { data: user ? { userId: user } : {} };
  });
  registerClientFiles(app, path.join(dist, 'client'), {
    readSession: async (request: FastifyRequest) => {
      const left = Number(request.headers.left ?? 6);
      return {
        user: { id: request.headers.user, email: `${request.headers.user}@example.com` },
        status: { isProUser: false, downloadCount: 6 - left, remainingDownloads: left },
      };
    },
  });
  app.setNotFoundHandler((_request, reply) => reply.sendFile('index.html'));
  await app.ready();
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

const seedsOf = (html: string) =>
  JSON.parse(/<script type="application\/json" id="first-screen">(.*?)<\/script>/.exec(html)?.[1] ?? 'null');

describe('first screens sent ready', () => {
  it('sends a visitor / and /sign-in rendered, with the answers used and the screen preloaded', async () => {
    const landing = await app.inject({ url: '/' });
    expect(landing.headers['cache-control']).toBe('no-cache');
    expect(landing.body).toContain('<div id="root"><main>screen /</main></div>');
    expect(seedsOf(landing.body)).toEqual({
      path: '/',
      seeds: [
        [['/api/auth/user'], null],
        [['/api/platforms'], [{ id: 'tiktok', name: '</script><!--' }]],
        [['/api/auth/providers'], { local: true, oidc: false }],
      ],
    });
    const signIn = await app.inject({ url: '/sign-in', headers: { 'accept-encoding': 'br' } });
    const html = zlib.brotliDecompressSync(signIn.rawPayload).toString();
    expect(html).toContain('<main>screen /sign-in</main>');
    // The sign-in screen's chunk, not the one the shell already loads.
    expect(html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/sign-in.js" fetchpriority="low"></head>',
    );
    expect(html).not.toContain('href="/assets/shared.js"');
  });

  it('renders each screen once, then answers from memory', async () => {
    await app.inject({ url: '/' });
    const before = (globalThis as { __renders?: number }).__renders;
    for (let i = 0; i < 5; i++) await app.inject({ url: '/?url=https%3A%2F%2Fexample.com' });
    expect((globalThis as { __renders?: number }).__renders).toBe(before);
  });

  it('fetches the scripts of a ready screen at low priority: it paints without them', async () => {
    for (const headers of [{}, { user: 'ann' }]) {
      const page = (await app.inject({ url: '/', headers })).body;
      expect(page).toContain('<script type="module" crossorigin fetchpriority="low" src="/assets/index.js">');
      expect(page).toContain('<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/runtime.js">');
      expect(page).not.toMatch(/<(script type="module"|link rel="modulepreload")(?![^>]*fetchpriority="low")[^>]*>/);
    }
  });

  it('sends the plain shell for /index.html, /sign-in with a query and other paths', async () => {
    for (const url of ['/index.html', '/sign-in?error=failed', '/faq']) {
      expect((await app.inject({ url })).body, url).toBe(shell);
    }
  });

  it('sends a signed-in / the variant for its plan and counts, with its own session in the JSON', async () => {
    const a = await app.inject({ url: '/', headers: { user: 'ann', left: '4' } });
    expect(a.headers['cache-control']).toBe('private, no-cache');
    expect(a.body).toContain('<main>screen / left 4</main>');
    expect(seedsOf(a.body).seeds[0]).toEqual([['/api/auth/user'], { id: 'ann', email: 'ann@example.com' }]);
    const before = (globalThis as { __renders?: number }).__renders ?? 0;
    // The shared render is made with no one's personal fields (only the JSON carries them).
    expect(a.body.replace(/<script type="application\/json".*?<\/script>/, '')).not.toContain('ann');
    // Same plan and counts: the same render, another person's fields.
    const b = await app.inject({ url: '/', headers: { user: 'bob', left: '4' } });
    expect((globalThis as { __renders?: number }).__renders).toBe(before);
    expect(b.body).toContain('<main>screen / left 4</main>');
    expect(seedsOf(b.body).seeds[0]).toEqual([['/api/auth/user'], { id: 'bob', email: 'bob@example.com' }]);
    expect(b.body).not.toContain('ann');
    // Other counts: another render.
    expect((await app.inject({ url: '/', headers: { user: 'cy', left: '2' } })).body).toContain('left 2');
    // Signed in elsewhere than /: the plain shell.
    expect((await app.inject({ url: '/sign-in', headers: { user: 'ann' } })).body).toBe(shell);
  });
});

describe('scriptJson', () => {
  it('cannot close its script or open a comment, and reads back the same', () => {
    const value = { a: '</script><script>alert(1)</script>', b: '<!-- & -->', c: '\u2028\u2029' };
    const text = scriptJson(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('Static (decision 0078)', () => {
  it('renders on the server the element and children a plain element would, for hydration to find', async () => {
    const { createElement: h } = await import('react');
    const { renderToString } = await import('react-dom/server');
    const { Router } = await import('wouter');
    const { Static } = await import('../../src/client/components/static-html.js');
    const children = [h('h2', { key: 'h' }, 'Title'), h('a', { key: 'a', href: '/faq' }, 'FAQ')];
    const html = renderToString(
      h(Router, {
        ssrPath: '/',
        children: h(Static, { as: 'section', className: 'x', 'aria-label': 'Features', children }),
      }),
    );
    expect(html).toBe(renderToString(h('section', { className: 'x', 'aria-label': 'Features' }, children)));
    expect(html).toContain('<h2>Title</h2>');
  });
});

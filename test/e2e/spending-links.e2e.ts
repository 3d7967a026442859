// Spending links on a plain-http address (issue 42): with PUBLIC_URL=http://<a LAN name> Chromium
// sends no Fetch Metadata (only https and localhost get it), and a page on another site spent a
// signed-in person's Free downloads through GET /api/video/download (window.open, location=, a GET
// form, <a download>, a meta refresh), their Lax cookie riding along. Here the app is
// http://smt.lan:<port> and the other site http://evil.lan:<port2>, both 127.0.0.1 for Chromium
// (--host-resolver-rules): every such navigation is refused, nothing is spent, and the person's
// own preview, download and "Original sound" link on the site still work (decision 0082).
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Download, Page, Response } from 'playwright-core';
import {
  freePort,
  launchBrowser,
  newPage,
  registerInBrowser,
  startServer,
  type RunningServer,
} from '../helpers/e2e.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';

let server: RunningServer;
let browser: Browser;
let tt: FakeTikTok;
let evil: http.Server;
let site: string; // the product, as people on the LAN reach it
let evilSite: string;

/** The attacker's pages, each sending the person's browser to `target` (the spending GET). */
const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
const js = (s: string) => JSON.stringify(s).replace(/</g, '\\u003c');
const ATTACKS: Array<[string, (target: string, post: string) => string]> = [
  ['window.open', (t) => `<script>window.open(${js(t)})</script>`],
  ['location=', (t) => `<script>location = ${js(t)}</script>`],
  [
    'a GET form',
    (_t, post) =>
      `<form method="get" action="${attr(`${site}/api/video/download`)}"><input name="url" value="${attr(post)}">` +
      '<input name="quality" value="hd"></form><script>document.forms[0].submit()</script>',
  ],
  [
    '<a download>',
    (t) => `<a id="a" download href="${attr(t)}">save</a><script>document.getElementById('a').click()</script>`,
  ],
  ['meta refresh', (t) => `<meta http-equiv="refresh" content="0;url=${attr(t)}">`],
];

beforeAll(async () => {
  tt = await startFakeTikTok();
  const port = await freePort();
  site = `http://smt.lan:${port}`;
  server = await startServer({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: site,
    UPSTREAM_HOST_MAP: tt.hostMapJson,
    VIDEO_INFO_PER_MINUTE: '1000',
  });
  // The other site: /<n>?target=…&post=… is attack n.
  evil = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://evil.lan');
    const attack = ATTACKS[Number(url.pathname.slice(1))];
    if (!attack) return void res.writeHead(404).end();
    const page = attack[1](url.searchParams.get('target') ?? '', url.searchParams.get('post') ?? '');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Win</title>${page}`);
  });
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  evilSite = `http://evil.lan:${(evil.address() as net.AddressInfo).port}`;
  browser = await launchBrowser([`--host-resolver-rules=MAP smt.lan 127.0.0.1, MAP evil.lan 127.0.0.1`]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((r) => (evil ? evil.close(r) : r(undefined)));
  await tt?.close();
});

/**
 * Opens attack `n` in a new tab of the person's browser; answers what became of the spending GET:
 * `<status> <code>` as the site answered it, or `downloaded` (the file was saved: a download spent).
 */
async function attack(context: BrowserContext, n: number, target: string, post: string): Promise<string> {
  const tab = await context.newPage();
  const opened: Page[] = [];
  let settle: (outcome: string) => void = () => {};
  let fail: (err: unknown) => void = () => {};
  const outcome = new Promise<string>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  const isTarget = (url: string) => url.startsWith(`${site}/api/video/download`);
  const onResponse = (r: Response) => {
    // A file served becomes a download: onDownload reports it once saved (the download spent).
    if (!isTarget(r.url()) || r.status() === 200) return;
    void (async () => {
      const headers = await r.request().allHeaders();
      // What makes this deployment different: no Fetch Metadata, and the Lax cookie goes along.
      const metadata = headers['sec-fetch-site'] ? 'with' : 'without';
      const cookie = headers.cookie?.includes('smt.sid') ? 'with' : 'without';
      const { code } = (await r.json().catch(() => ({}))) as { code?: string };
      settle(`${r.status()} ${code}, ${metadata} Fetch Metadata, ${cookie} the cookie`);
    })().catch(fail);
  };
  const onDownload = (d: Download) => {
    if (isTarget(d.url())) void d.path().then(() => settle('downloaded'), fail);
  };
  const onPage = (p: Page) => {
    opened.push(p);
    p.on('download', onDownload);
  };
  context.on('response', onResponse);
  context.on('page', onPage);
  tab.on('download', onDownload);
  try {
    // A navigation that becomes a download rejects goto; the listeners above tell what happened.
    tab.goto(`${evilSite}/${n}?${new URLSearchParams({ target, post })}`).catch(() => {});
    return await outcome;
  } finally {
    context.off('response', onResponse);
    context.off('page', onPage);
    for (const p of [tab, ...opened]) await p.close();
  }
}

describe('spending links on a plain-http LAN address (issue 42)', () => {
  it('another site’s navigations spend nothing; the person’s own clicks preview and download', async () => {
    const { page, context } = await newPage(browser);
    const email = `lan${Date.now()}@example.com`;
    await registerInBrowser(page, site, email);
    const used = () =>
      page.evaluate(async () => (await (await fetch('/api/subscription/status')).json()).downloadCount as number);
    const v = tt.addVideo({ desc: 'On the LAN' });
    const target = `${site}/api/video/download?url=${encodeURIComponent(v.url)}&quality=hd`;

    const outcomes: string[] = [];
    for (const [n, [what]] of ATTACKS.entries()) outcomes.push(`${what}: ${await attack(context, n, target, v.url)}`);
    expect({ outcomes, spent: await used() }).toEqual({
      outcomes: ATTACKS.map(([what]) => `${what}: 403 request.unkeyed_link, without Fetch Metadata, with the cookie`),
      spent: 0,
    });

    // The person's own card: the preview (a GET with their key, sent without Fetch Metadata) plays.
    await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill(v.url);
    await page.getByRole('button', { name: 'Fetch Video' }).click();
    await page.getByTestId('video-card').waitFor();
    const streamed = page.waitForRequest((r) => r.url().startsWith(`${site}/api/video/stream/`));
    await page.getByRole('button', { name: 'Play preview' }).click();
    const stream = await streamed;
    expect(stream.url()).toMatch(/\?t=\d+\.[\w-]{43}$/);
    expect((await stream.allHeaders())['sec-fetch-site']).toBeUndefined();
    await page.waitForFunction(
      () =>
        ((document.querySelector('[data-testid="video-preview"]') as HTMLVideoElement | null)?.readyState ?? 0) >= 2,
    );
    await page.getByRole('button', { name: 'Close preview' }).click();
    // Download HD: saved, and counted once.
    const saved = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Download HD' }).click();
    const file = await saved;
    expect(await file.failure()).toBeNull();
    expect(file.suggestedFilename()).toMatch(/^tiktok-.+\.mp4$/);
    await expect.poll(used).toBe(1);

    // The audio page's "Original sound" <a download>: a spending GET link, keyed for the person.
    expect((await server.cli(['user:grant-pro', email])).code).toBe(0);
    await page.goto(`${site}/audio-extractor`);
    await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill(v.url);
    await page.getByRole('button', { name: 'Extract' }).click();
    const card = page.getByTestId('audio-result');
    await card.waitFor({ timeout: 30_000 });
    const link = card.getByRole('link', { name: 'Original sound (as TikTok stores it)' });
    expect(await link.getAttribute('href')).toMatch(/^\/api\/video\/download\?url=.+&quality=sound&t=\d+\.[\w-]{43}$/);
    const [sound] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), link.click()]);
    expect(await sound.failure()).toBeNull();
    expect(sound.suggestedFilename()).toBe(`tiktok-fakecreator-${v.id}-sound.m4a`);
    await context.close();
  });
});

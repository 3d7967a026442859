// Issue 22, installable: Chromium's own installability check (DevTools Page.getInstallabilityErrors,
// the one Lighthouse uses), the manifest's fields, icons of the right sizes, a service worker that
// controls the page and never caches API answers or media, and the share target opening the card.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  launchBrowser,
  newPage,
  registerInBrowser,
  screenshot,
  startServer,
  type RunningServer,
} from '../helpers/e2e.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';

let server: RunningServer;
let browser: Browser;
let tt: FakeTikTok;

beforeAll(async () => {
  tt = await startFakeTikTok();
  server = await startServer({ UPSTREAM_HOST_MAP: tt.hostMapJson, VIDEO_INFO_PER_MINUTE: '1000' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tt?.close();
});

function pngSize(buf: Buffer): { width: number; height: number } {
  expect(buf.subarray(1, 4).toString('ascii')).toBe('PNG');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

describe('installable web app', () => {
  it('has a valid manifest with 192 and 512 px icons, theme colour, standalone display and a share target', async () => {
    const { page, context } = await newPage(browser);
    await page.goto(server.url);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe('#7c3aed');
    const res = await fetch(new URL(href!, server.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/manifest\+json|application\/json/);
    const m = await res.json();
    expect(m.name).toBe('Social Media Toolkit');
    expect(m.short_name).toBeTruthy();
    expect(m.display).toBe('standalone');
    expect(m.theme_color).toBe('#7c3aed');
    const scope = new URL(m.scope, server.url).href;
    expect(new URL(m.start_url, server.url).href.startsWith(scope)).toBe(true);
    for (const size of [192, 512]) {
      const icon = m.icons.find((i: { sizes: string }) => i.sizes === `${size}x${size}`);
      expect(icon?.type).toBe('image/png');
      const img = await fetch(new URL(icon.src, server.url));
      expect(img.headers.get('content-type')).toBe('image/png');
      expect(pngSize(Buffer.from(await img.arrayBuffer()))).toEqual({ width: size, height: size });
    }
    expect(m.share_target).toEqual({
      action: '/',
      method: 'GET',
      enctype: 'application/x-www-form-urlencoded',
      params: { title: 'title', text: 'text', url: 'url' },
    });

    // Chromium's verdict, as Lighthouse asks it: no installability errors once the worker runs.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    const cdp = await context.newCDPSession(page);
    const verdict = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: Array<{ errorId: string }>;
    };
    // Playwright's contexts are incognito, which Chromium reports on its own; every other check counts.
    expect(verdict.installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
    const parsed = (await cdp.send('Page.getAppManifest')) as { errors: unknown[]; url: string };
    expect(parsed.errors).toEqual([]);
    await context.close();
  });

  it('registers a service worker that controls the page, caches the shell only, and the share URL opens the card', async () => {
    const { page, context } = await newPage(browser, { width: 375 });
    await registerInBrowser(page, server.url, `sw-${Date.now()}@example.com`);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    expect(await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL)).toBe(`${server.url}/sw.js`);

    // Under the worker's control: the share target (text as the TikTok app sends it) opens the card.
    const v = tt.addVideo({ desc: 'Shared to the app' });
    await page.goto(`${server.url}/?title=TikTok&text=${encodeURIComponent(`Check out this video! ${v.url}`)}`);
    await page.getByTestId('video-card').waitFor();
    expect(await page.getByTestId('video-title').textContent()).toBe('Shared to the app');
    await page.getByRole('button', { name: 'Play preview' }).click();
    await page.waitForFunction(
      () =>
        ((document.querySelector('[data-testid="video-preview"]') as HTMLVideoElement | null)?.readyState ?? 0) >= 2,
    );
    await screenshot(page, 'installable-share-target-controlled-375');

    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys())
        for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
      return urls;
    });
    // The plain shell, not `/`: that answer is a first screen rendered for who asked (decision 0074).
    expect(cached).toContain('/index.html');
    expect(cached).not.toContain('/');
    expect(cached.some((u) => u.startsWith('/assets/'))).toBe(true);
    expect(cached.filter((u) => u !== '/index.html' && !u.startsWith('/assets/'))).toEqual([]); // no /api, no media
    await context.close();
  });
});

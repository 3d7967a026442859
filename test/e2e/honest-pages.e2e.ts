// Issue 31, items 5 and 10, as a visitor sees them: a 404 page for people, /blog/<unknown or draft>
// answering 404, real footer pages with the operator's texts and this year, a landing page that
// claims no crowd, pictures from other sites shown through the product (the browser asks no one
// else), no error in a signed-out visitor's console, and toasts that never cover the next thing to
// press (nor the play button its "No thumbnail" text).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  launchBrowser,
  newPage,
  registerInBrowser,
  screenshot,
  startServer,
  type RunningServer,
} from '../helpers/e2e.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { aacSound, hevcVideoOnly } from '../fakes/media-samples.js';

// A 1×1 PNG: what a picture host on the internet would send.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const IMAGE_HOST = 'pictures.example.com';

let server: RunningServer;
let browser: Browser;
let tt: FakeTikTok;
let pictures: http.Server;
const pictureRequests: string[] = [];
let pagesDir: string;

beforeAll(async () => {
  tt = await startFakeTikTok();
  pictures = http.createServer((req, res) => {
    pictureRequests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length }).end(PNG);
  });
  await new Promise<void>((r) => pictures.listen(0, '127.0.0.1', r));
  const hostMap = {
    ...JSON.parse(tt.hostMapJson),
    [IMAGE_HOST]: `http://127.0.0.1:${(pictures.address() as AddressInfo).port}`,
  };
  pagesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-pages-'));
  fs.writeFileSync(path.join(pagesDir, 'privacy.md'), '## Our promise\n\nWe keep **nothing** we do not need.\n');
  server = await startServer({
    UPSTREAM_HOST_MAP: JSON.stringify(hostMap),
    VIDEO_INFO_PER_MINUTE: '1000',
    SITE_PAGES_DIR: pagesDir,
    CONTACT_EMAIL: 'help@toolkit.example',
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tt?.close();
  await new Promise((r) => pictures?.close(r));
  if (pagesDir) fs.rmSync(pagesDir, { recursive: true, force: true });
});

/** Every host the page's own requests went to (the browser's, not the server's). */
function hostsAsked(page: Page): Set<string> {
  const hosts = new Set<string>();
  page.on('request', (r) => hosts.add(new URL(r.url()).host));
  return hosts;
}

async function naturalWidth(img: Locator): Promise<number> {
  await img.waitFor();
  return img.evaluate(
    (el) =>
      new Promise<number>((done) => {
        const i = el as HTMLImageElement;
        if (i.complete) return done(i.naturalWidth);
        i.addEventListener('load', () => done(i.naturalWidth));
        i.addEventListener('error', () => done(0));
      }),
  );
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('honest pages', () => {
  it('gives people a 404 page with ways on, and answers 404 for an unknown or draft post', async () => {
    const { page, context } = await newPage(browser);
    const res = await page.goto(`${server.url}/no-such-page`);
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    expect(await page.getByText('Did you forget to add the page to the router?').count()).toBe(0);
    await page.getByText('There is no page at this address').waitFor();
    await page.getByRole('link', { name: 'Download a TikTok or Bluesky or Reddit video' }).waitFor();
    await screenshot(page, 'honest-404');

    expect((await page.goto(`${server.url}/blog/no-such-post`))?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Post not found' }).waitFor();

    await registerInBrowser(page, server.url, `drafter-${Date.now()}@example.com`);
    const draft = await page.request.post(`${server.url}/api/blog/posts`, {
      data: { title: 'Still a draft', content: 'Not yet', status: 'draft' },
      headers: { origin: server.url },
    });
    expect(draft.status()).toBe(201);
    expect((await page.goto(`${server.url}/blog/still-a-draft`))?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Post not found' }).waitFor();
    await context.close();
  });

  it("shows real footer pages with the operator's texts and this year, and claims no crowd", async () => {
    const { page, context } = await newPage(browser, { width: 375, height: 800 });
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(server.url);
    await page.getByRole('heading', { name: 'Download TikTok Videos Instantly' }).waitFor();
    // Signed out is not an error: nothing red in the visitor's console (item 9).
    expect(errors).toEqual([]);
    expect(await page.locator('main').textContent()).not.toMatch(/thousands/i);

    const footer = page.getByRole('contentinfo');
    expect(await footer.textContent()).toContain(`© ${new Date().getFullYear()} Social Media Toolkit`);
    expect(await footer.locator('a[href="#"]').count()).toBe(0);
    await footer.getByRole('link', { name: 'Privacy Policy' }).click();
    await page.waitForURL(`${server.url}/privacy`);
    await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Our promise' }).waitFor();
    expect(await page.getByTestId('site-page-text').textContent()).toContain('We keep nothing we do not need.');
    await screenshot(page, 'honest-privacy-375');

    // The pages the operator did not write: the product's defaults, with the contact address.
    const contact = await page.goto(`${server.url}/contact`);
    expect(contact?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Contact Us', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'help@toolkit.example' }).waitFor();
    for (const [p, title] of [
      ['/faq', 'FAQ'],
      ['/terms', 'Terms'],
    ]) {
      expect((await page.goto(`${server.url}${p}`))?.status()).toBe(200);
      await page.getByRole('heading', { name: title, level: 1 }).waitFor();
      expect((await page.getByTestId('site-page-text').textContent())?.length).toBeGreaterThan(200);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows trending thumbnails and blog images through the product: the browser asks no one else', async () => {
    const { page, context } = await newPage(browser);
    const email = `pictures-${Date.now()}@example.com`;
    await registerInBrowser(page, server.url, email);
    expect((await server.cli(['user:grant-pro', email])).code).toBe(0);
    const own = new URL(server.url).host;

    const entry = await page.request.post(`${server.url}/api/trending-videos`, {
      data: {
        title: 'Picture from elsewhere',
        videoUrl: 'https://www.tiktok.com/@someone/video/7000000000000000001',
        platform: 'tiktok',
        thumbnailUrl: `https://${IMAGE_HOST}/thumb.png`,
      },
      headers: { origin: server.url },
    });
    expect(entry.status()).toBe(201);
    const post = await page.request.post(`${server.url}/api/blog/posts`, {
      data: {
        title: 'Pictures elsewhere',
        content: `Look:\n\n![inline](https://${IMAGE_HOST}/inline.png)`,
        featuredImage: `https://${IMAGE_HOST}/featured.png`,
        status: 'published',
      },
      headers: { origin: server.url },
    });
    expect(post.status()).toBe(201);

    const hosts = hostsAsked(page);
    await page.goto(`${server.url}/trending-videos`);
    const thumb = page.locator('[data-testid="trending-card"] img').first();
    expect(await naturalWidth(thumb)).toBe(1);
    await page.goto(`${server.url}/blog/pictures-elsewhere`);
    await page.getByRole('heading', { name: 'Pictures elsewhere' }).waitFor();
    expect(await naturalWidth(page.locator('main img').first())).toBe(1);
    expect(await naturalWidth(page.getByTestId('post-content').locator('img'))).toBe(1);
    expect([...hosts]).toEqual([own]);
    expect(pictureRequests.sort()).toEqual(['/featured.png', '/inline.png', '/thumb.png']);
    await context.close();
  });
});

for (const width of [1280, 375]) {
  describe(`small things at ${width} px`, () => {
    it('signs up in place and the "Video fetched" toast leaves the 1080p Download button clear', async () => {
      const { page, context } = await newPage(browser, { width });
      const v = tt.addVideo({
        desc: `Toast clear ${width}`,
        hevc: {
          gears: { '1080p': hevcVideoOnly(1080, 1920, 2), '720p': hevcVideoOnly(720, 1280, 2) },
          sounds: [aacSound(2)],
        },
      });
      await page.goto(`${server.url}/?url=${encodeURIComponent(v.url)}`);
      await page.getByRole('button', { name: 'Download HD' }).click();
      const account = page.getByTestId('download-account');
      await account.getByLabel('Email').fill(`toast-${width}-${Date.now()}@example.com`);
      await account.getByLabel('Password').fill('correct horse battery');
      const saved = page.waitForEvent('download');
      await account.getByRole('button', { name: 'Create account' }).click();
      await saved;
      // The signed-in downloader fetches the same link again and says so.
      const toast = page.getByTestId('toast').filter({ hasText: 'Video fetched successfully' });
      await toast.waitFor();
      const button = page.getByRole('button', { name: 'Download 1080P' });
      await button.waitFor();
      await page.waitForFunction(() => {
        const t = document.querySelector('[data-testid="toast"]');
        return !!t && t.getAnimations().every((a) => a.playState !== 'running');
      });
      await screenshot(page, `honest-toast-after-sign-up-${width}`);
      const toastBox = await toast.boundingBox();
      const buttonBox = await button.boundingBox();
      expect(toastBox && buttonBox).toBeTruthy();
      expect(overlaps(toastBox as Box, buttonBox as Box)).toBe(false);
      await context.close();
    });

    it('keeps the play button off the "No thumbnail" text', async () => {
      const { page, context } = await newPage(browser, { width });
      await page.route('**/api/video/thumbnail/**', (route) => route.fulfill({ status: 404, body: 'gone' }));
      await page.goto(`${server.url}/?url=${encodeURIComponent(tt.addVideo({ desc: 'No cover' }).url)}`);
      const card = page.getByTestId('video-card');
      const label = card.getByText('No thumbnail');
      await label.waitFor();
      const play = card.getByRole('button', { name: /Play preview/ }).locator('span.rounded-full');
      const labelBox = await label.boundingBox();
      const iconBox = await card.getByTestId('thumbnail-placeholder').locator('svg').boundingBox();
      const playBox = await play.boundingBox();
      expect(labelBox && iconBox && playBox).toBeTruthy();
      expect(overlaps(labelBox as Box, playBox as Box)).toBe(false);
      expect(overlaps(iconBox as Box, playBox as Box)).toBe(false);
      await screenshot(page, `honest-no-thumbnail-${width}`);
      await context.close();
    });
  });
}

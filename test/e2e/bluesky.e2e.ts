// Bluesky in Chromium (issue 37), against its fakes (test/fakes/bluesky/): the landing page says
// which platforms work; the downloader takes a Bluesky video link (the real captured post, by its
// handle), shows its card with the thumbnail through our own link, and saves the uploaded original;
// a picture post shows its pictures and saves one and the ZIP; a post without media says so.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  launchBrowser,
  newPage,
  registerInBrowser,
  screenshot,
  startServer,
  type RunningServer,
} from '../helpers/e2e.js';
import { zipEntries } from '../helpers/zip.js';
import { startFakeBluesky, type FakeBluesky } from '../fakes/bluesky/fake-bluesky.js';
import { toneMp4 } from '../fakes/media-samples.js';
import { solidJpeg } from '../fakes/tiktok/photo.js';

let server: RunningServer;
let browser: Browser;
let bs: FakeBluesky;
const video = toneMp4(3, { faststart: true });

beforeAll(async () => {
  bs = await startFakeBluesky();
  server = await startServer({ UPSTREAM_HOST_MAP: bs.hostMapJson, VIDEO_INFO_PER_MINUTE: '1000' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await bs?.close();
});

async function fetchPost(page: Page, url: string) {
  await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill(url);
  await page.getByTestId('url-valid').waitFor();
  await page.getByRole('button', { name: 'Fetch Video' }).click();
}
async function save(page: Page, click: () => Promise<void>) {
  const event = page.waitForEvent('download', { timeout: 30_000 });
  await click();
  const download = await event;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bsky-dl-')), download.suggestedFilename());
  await download.saveAs(file);
  return file;
}

describe('Bluesky in the browser', () => {
  it('lists the platforms on the landing page, then fetches and saves a Bluesky video', async () => {
    const { page, context } = await newPage(browser);
    await page.goto(server.url);
    expect(await page.getByTestId('platforms-note').textContent()).toBe('Links that work: TikTok, Bluesky, Reddit.');
    await registerInBrowser(page, server.url, `bsky${Date.now()}@example.com`);

    const { handleUrl } = bs.addFixture('video', { video });
    await fetchPost(page, handleUrl);
    const card = page.getByTestId('video-card');
    await card.waitFor();
    expect(await page.getByTestId('video-title').textContent()).toMatch(
      /^Once the widget was setup, it was surprisingly/,
    );
    expect(await page.getByTestId('video-author').textContent()).toBe('@kamhoyung.bsky.social');
    expect(await page.getByTestId('video-likes').textContent()).toBe('0 likes');
    // Bluesky gives no duration or view count: no made-up figure is shown.
    expect(await page.getByTestId('video-views').count()).toBe(0);
    expect(await page.getByTestId('option-codec').allTextContents()).toEqual([' · H.264 · plays everywhere']);
    const thumb = card.locator('img').first();
    expect(await thumb.getAttribute('src')).toMatch(
      /^\/api\/video\/thumbnail\/plc-l7mosai5i2u562b5qbosw6c7-3lhnr2o6kb22h\?platform=bluesky$/,
    );
    await expect.poll(() => thumb.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await screenshot(page, 'bluesky-video-card');

    const saved = await save(page, () => page.getByRole('button', { name: 'Download HD' }).click());
    // The name the server gave the file: platform, author, post (decision 0094).
    expect(path.basename(saved)).toMatch(/^bluesky-[\w.-]+-plc-[a-z0-9]+-[a-z0-9]+\.mp4$/);
    expect(fs.readFileSync(saved).equals(fs.readFileSync(video))).toBe(true);
    await page.getByText('Download completed').first().waitFor();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="plan-badge"]')?.textContent === 'Free (1/6)',
    );
    await context.close();
  });

  it('shows a picture post as a strip, saves one picture and the ZIP; a post without media says so', async () => {
    const { page, context } = await newPage(browser);
    await registerInBrowser(page, server.url, `bskyp${Date.now()}@example.com`);
    const pictures = [solidJpeg('ff0000', 300, 400), solidJpeg('0000ff', 300, 400)];
    const { url } = bs.addPicturePost(pictures);
    await fetchPost(page, url);
    const strip = page.getByTestId('photo-strip');
    await expect
      .poll(() => strip.locator('img').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth)))
      .toEqual([300, 300]);
    await screenshot(page, 'bluesky-picture-post');
    const one = await save(page, () => page.getByRole('link', { name: 'Save photo 2' }).click());
    expect(path.basename(one)).toMatch(/^bluesky-creator\d+\.bsky\.social-plc-[a-z2-7]{24}-[2-7a-z]{13}-02\.jpg$/);
    expect(fs.readFileSync(one).equals(fs.readFileSync(pictures[1]))).toBe(true);
    const zip = await save(page, () => page.getByRole('button', { name: 'Download IMAGES' }).click());
    expect(path.basename(zip)).toMatch(/^bluesky-[\w.-]+-plc-[a-z0-9]+-[a-z0-9]+-photos\.zip$/);
    expect((await zipEntries(fs.readFileSync(zip))).map((e) => e.name)).toEqual(['01.jpg', '02.jpg']);
    await page.getByText('Your photos were saved.').first().waitFor();

    await fetchPost(page, bs.addLinkCard().url);
    await page
      .getByText('This Bluesky post has no video or pictures to download. Try a post with a video.')
      .first()
      .waitFor();
    await context.close();
  });

  it('extracts the MP3 of a Bluesky video on the audio page, offering no separate original sound', async () => {
    const { page, context } = await newPage(browser);
    const email = `bskya${Date.now()}@example.com`;
    await registerInBrowser(page, server.url, email);
    expect((await server.cli(['user:grant-pro', email])).code).toBe(0);
    await page.goto(`${server.url}/audio-extractor`);
    await page.getByTestId('plan-badge').filter({ hasText: 'PRO' }).first().waitFor();
    const { url } = bs.addVideoPost({ file: video, text: 'Sky sound check' });
    await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill(url);
    await page.getByRole('button', { name: 'Extract' }).click();
    const card = page.getByTestId('audio-result');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByRole('heading').textContent()).toBe('Sky sound check');
    expect(await page.getByTestId('audio-duration').textContent()).toBe('0:03');
    await card.getByRole('link', { name: 'Download MP3' }).waitFor();
    // Bluesky keeps a post's sound only inside its video: no "original sound" file to offer.
    expect(await card.getByRole('link', { name: /Original sound/ }).count()).toBe(0);
    await context.close();
  });
});

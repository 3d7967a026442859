// Issue 22, the small things people notice, at 1280 and 375 px: broken thumbnails show the
// placeholder (card and recent list), Clear History asks first, "1 segment", captions unavailable
// said plainly (no setup text), the test checkout's buttons match, the abandoned-checkout toast.
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
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';

let server: RunningServer;
let browser: Browser;
let tt: FakeTikTok;

beforeAll(async () => {
  tt = await startFakeTikTok();
  // No speech recogniser here: a video without captions of its own cannot be captioned.
  server = await startServer({
    UPSTREAM_HOST_MAP: tt.hostMapJson,
    VIDEO_INFO_PER_MINUTE: '1000',
    POCKETSPHINX_MODEL_DIR: '/nonexistent/model',
    TRANSCRIBE_API_URL: '',
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tt?.close();
});

const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title }).first();

async function proUser(page: Page, prefix: string) {
  const email = `${prefix}-${Date.now()}@example.com`;
  await registerInBrowser(page, server.url, email);
  expect((await server.cli(['user:grant-pro', email])).code).toBe(0);
  await page.reload();
  await page.getByTestId('plan-badge').filter({ hasText: 'PRO' }).waitFor();
}

for (const width of [1280, 375]) {
  describe(`small things at ${width} px`, () => {
    it('shows the placeholder for broken thumbnails and asks before clearing the history', async () => {
      const { page, context } = await newPage(browser, { width });
      await page.route('**/api/video/thumbnail/**', (route) => route.fulfill({ status: 404, body: 'gone' }));
      await registerInBrowser(page, server.url, `thumbs-${width}-${Date.now()}@example.com`);
      await page
        .getByLabel('TikTok or Bluesky or Reddit video URL')
        .fill(tt.addVideo({ desc: 'Broken thumbnail' }).url);
      await page.getByRole('button', { name: 'Fetch Video' }).click();
      const card = page.getByTestId('video-card');
      await card.getByTestId('thumbnail-placeholder').waitFor();
      expect(await card.locator('img').count()).toBe(0);
      const saved = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download HD' }).click();
      await saved;
      const recent = page.getByTestId('recent-list');
      await recent.getByTestId('thumbnail-placeholder').first().waitFor();
      expect(await recent.locator('img').count()).toBe(0);
      await screenshot(page, `small-broken-thumbnail-${width}`);

      await page.getByRole('button', { name: 'Clear History' }).click();
      await page.getByText('Clear the whole list?').waitFor();
      await page.getByRole('button', { name: 'Keep' }).click();
      expect(await recent.getByRole('listitem').count()).toBe(1);
      await page.getByRole('button', { name: 'Clear History' }).click();
      await screenshot(page, `small-clear-history-confirm-${width}`);
      await page.getByRole('button', { name: 'Yes, clear' }).click();
      await page.getByText('No downloads yet.').waitFor();
      await context.close();
    });

    it('says "1 segment", and that captions are unavailable here without any setup text', async () => {
      const { page, context } = await newPage(browser, { width });
      await proUser(page, `captions-${width}`);
      await page.goto(`${server.url}/auto-captions`);
      const one = tt.addVideo({
        desc: 'One line',
        subtitles: [{ lang: 'eng-US', vtt: 'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nJust one line\n' }],
        duration: 3,
      });
      await page.getByLabel('Video URL').fill(one.url);
      await page.getByRole('button', { name: 'Generate Captions' }).click();
      await page.getByTestId('captions-result').waitFor();
      expect(await page.getByTestId('captions-count').textContent()).toBe('1 segment');
      await screenshot(page, `small-one-segment-${width}`);

      await page.getByLabel('Video URL').fill(tt.addVideo({ desc: 'No captions' }).url);
      await page.getByRole('button', { name: 'Generate Captions' }).click();
      const t = toast(page, 'Transcription failed');
      await t.getByText('Captions are unavailable on this server for this video').waitFor();
      expect(await t.textContent()).not.toMatch(/apt-get|TRANSCRIBE_API_URL|pocketsphinx/);
      await screenshot(page, `small-captions-unavailable-${width}`);
      await context.close();
    });

    it('gives the test checkout buttons one height and font, and words the abandoned checkout calmly', async () => {
      const { page, context } = await newPage(browser, { width });
      // PUBLIC_URL defaults to http://localhost:PORT: the checkout's return lands there, so browse there.
      const base = server.url.replace('127.0.0.1', 'localhost');
      await registerInBrowser(page, base, `checkout-${width}-${Date.now()}@example.com`);
      await page.goto(`${base}/subscription`);
      await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
      await page.waitForURL(/\/api\/billing\/test-checkout\//);
      const measure = (name: string) =>
        page.getByRole('button', { name }).evaluate((b) => {
          const s = getComputedStyle(b);
          return {
            height: b.getBoundingClientRect().height,
            font: `${s.fontFamily} ${s.fontSize} ${s.fontWeight}`,
            bodyFont: getComputedStyle(document.body).fontFamily,
          };
        });
      const approve = await measure('Approve test payment');
      const cancel = await measure('Cancel and return');
      expect(approve.height).toBe(cancel.height);
      expect(approve.font).toBe(cancel.font);
      expect(approve.font.startsWith(approve.bodyFont)).toBe(true);
      await screenshot(page, `small-test-checkout-${width}`);
      await page.getByRole('button', { name: 'Cancel and return' }).click();
      await toast(page, 'Checkout not completed').getByText('No payment was made').waitFor();
      expect(await page.getByText('Subscription Cancelled').count()).toBe(0);
      await context.close();
    });
  });
}

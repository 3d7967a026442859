// Issue 22, the first minute: a new visitor pastes on the landing page and saves a file in 3
// actions (paste, Download, Create account); a signed-in person in 2 (paste, Download); links
// shared from the TikTok app (share target) or given as /?url= open the card; signed-out app
// routes ask to sign in; unknown paths answer 404.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Download, Page } from 'playwright-core';
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

async function savedSize(download: Download): Promise<number> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fm-')), download.suggestedFilename());
  await download.saveAs(file);
  return fs.statSync(file).size;
}

/** Puts text on the clipboard and presses the field's paste button: one action. */
async function pasteLink(page: Page, text: string) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.getByRole('button', { name: 'Paste from clipboard' }).click();
}

for (const width of [1280, 375]) {
  describe(`first minute at ${width} px`, () => {
    it('new visitor: paste, Download, Create account, and the file is saved (3 actions)', async () => {
      const { page, context } = await newPage(browser, { width });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      const v = tt.addVideo({ desc: `New visitor ${width}`, media: { size: 700_000 } });
      await page.goto(server.url);
      let actions = 0;

      await pasteLink(page, v.url);
      actions++;
      await page.getByTestId('video-card').waitFor();
      expect(await page.getByTestId('video-title').textContent()).toBe(`New visitor ${width}`);
      // The founding landing content (decision 0092 'Landing page') stays below the paste box.
      expect(await page.getByTestId('feature-card').count()).toBe(6);
      await page.getByRole('link', { name: 'Start Creating Now' }).waitFor({ state: 'attached' });
      await screenshot(page, `first-minute-card-signed-out-${width}`);

      await page.getByRole('button', { name: 'Download HD' }).click();
      actions++;
      const account = page.getByTestId('download-account');
      await account.getByRole('heading', { name: 'Create your account' }).waitFor();
      // The email field has the focus: typing starts at once.
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('email');
      await page.keyboard.type(`new-${width}-${Date.now()}@example.com`);
      await account.getByLabel('Password').fill('correct horse battery');
      await screenshot(page, `first-minute-account-in-place-${width}`);
      const saved = page.waitForEvent('download');
      await account.getByRole('button', { name: 'Create account' }).click();
      actions++;
      const download = await saved;
      expect(download.suggestedFilename()).toBe(`tiktok-fakecreator-${v.id}.mp4`);
      expect(await savedSize(download)).toBe(700_000);
      expect(actions).toBe(3);

      // Then the signed-in downloader, with the same link's card and the download counted.
      await page.getByTestId('plan-badge').waitFor();
      await page.waitForFunction(() =>
        document.querySelector('[data-testid="plan-badge"]')?.textContent?.includes('1/6'),
      );
      expect(await page.getByTestId('video-title').textContent()).toBe(`New visitor ${width}`);
      expect(await page.getByLabel('TikTok or Bluesky or Reddit video URL').inputValue()).toBe(v.url);
      await screenshot(page, `first-minute-after-sign-up-${width}`);
      await context.close();
    });

    it('signed in: paste, Download (2 actions)', async () => {
      const { page, context } = await newPage(browser, { width });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      await registerInBrowser(page, server.url, `signed-${width}-${Date.now()}@example.com`);
      const v = tt.addVideo({ desc: `Signed in ${width}`, media: { size: 400_000 } });
      let actions = 0;
      await pasteLink(page, `Check out this video on TikTok! ${v.url} #fyp`);
      actions++;
      await page.getByTestId('video-card').waitFor();
      const saved = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download HD' }).click();
      actions++;
      expect(await savedSize(await saved)).toBe(400_000);
      expect(actions).toBe(2);
      await context.close();
    });

    it('opens the card for a shared link (share target) and for /?url=, signed out and in', async () => {
      const { page, context } = await newPage(browser, { width });
      const v = tt.addVideo({ desc: `Shared ${width}` });
      const short = tt.addShortLink(`ZS${width}x`, v.url);
      const shared = new URLSearchParams({ title: 'TikTok', text: `Check out @maker's video! ${short} #fyp` });
      await page.goto(`${server.url}/?${shared}`);
      await page.getByTestId('video-card').waitFor();
      expect(await page.getByTestId('video-title').textContent()).toBe(`Shared ${width}`);
      expect(new URL(page.url()).search).toBe(''); // cleaned: a reload does not refetch
      await screenshot(page, `first-minute-share-target-${width}`);

      await registerInBrowser(page, server.url, `share-${width}-${Date.now()}@example.com`);
      await page.goto(`${server.url}/?url=${encodeURIComponent(v.url)}`);
      await page.getByTestId('video-card').waitFor();
      expect(await page.getByLabel('TikTok or Bluesky or Reddit video URL').inputValue()).toBe(v.url);
      await context.close();
    });

    it('asks to sign in on app routes when signed out; unknown paths are a 404 with a link home', async () => {
      const { page, context } = await newPage(browser, { width });
      for (const [p, name] of [
        ['/subscription', 'Sign in to use your subscription'],
        ['/trends', 'Sign in to use Trends'],
        ['/blog', 'Sign in to use the blog'],
      ]) {
        const res = await page.goto(`${server.url}${p}`);
        expect(res?.status()).toBe(200);
        await page.getByRole('heading', { name }).waitFor();
        await expect(page.getByText('404').count()).resolves.toBe(0);
      }
      await screenshot(page, `first-minute-sign-in-to-use-${width}`);
      // Signing in right there opens the screen that was asked for.
      await page.getByRole('button', { name: 'Create an account' }).click();
      await page.getByLabel('Email').fill(`route-${width}-${Date.now()}@example.com`);
      await page.getByLabel('Password').fill('correct horse battery');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'My Blog' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/blog');
      await context.close();

      const anon = await newPage(browser, { width });
      const res = await anon.page.goto(`${server.url}/no-such-page`);
      expect(res?.status()).toBe(404);
      await anon.page.getByText('404 Page Not Found').waitFor();
      await screenshot(anon.page, `first-minute-404-${width}`);
      await anon.page.getByRole('link', { name: 'Go to the home page' }).click();
      await anon.page.getByRole('heading', { name: 'Download TikTok Videos Instantly' }).waitFor();
      expect((await fetch(`${server.url}/api/nope`)).status).toBe(404);
      await anon.context.close();
    });
  });
}

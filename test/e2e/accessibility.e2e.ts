// Issue 22: an axe-core pass on every screen at 1280 and 375 px (no serious or critical
// violations), and the download flow done with the keyboard only, signed out and signed in.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, registerInBrowser, screenshot, startServer, type RunningServer } from '../helpers/e2e.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

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

/** bypassCSP: axe is injected as an inline script, which the app's own CSP rightly refuses. */
async function open(width: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width, height: 800 },
    bypassCSP: true,
    acceptDownloads: true,
  });
  return { context, page: await context.newPage() };
}

/** Serious and critical violations of every screen visited, reported together at the end. */
const found: string[] = [];

async function expectNoSeriousViolations(page: Page, screen: string) {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            o: object,
          ) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.id} (${v.impact}): ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 3)
            .join(', ')}`,
      );
  });
  found.push(...violations.map((v) => `${screen}: ${v}`));
}

async function visit(page: Page, path: string, ready: string) {
  await page.goto(`${server.url}${path}`);
  await page.getByRole('heading', { name: ready }).first().waitFor();
}

for (const width of [1280, 375]) {
  describe(`accessibility at ${width} px`, () => {
    it('has no serious or critical axe violations on any screen, signed out, free and Pro', async () => {
      found.length = 0;
      const { page, context } = await open(width);
      // Signed out.
      await visit(page, '/', 'Download TikTok Videos Instantly');
      await expectNoSeriousViolations(page, 'landing');
      await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill(tt.addVideo({ desc: 'Axe card' }).url);
      await page.getByRole('button', { name: 'Fetch Video' }).click();
      await page.getByTestId('video-card').waitFor();
      await page.getByRole('button', { name: 'Download HD' }).click();
      await page.getByTestId('download-account').waitFor();
      await expectNoSeriousViolations(page, 'landing with card and account form');
      await visit(page, '/sign-in', 'Sign in');
      await expectNoSeriousViolations(page, 'sign-in');
      await visit(page, '/trends', 'Sign in to use Trends');
      await expectNoSeriousViolations(page, 'sign in to use');
      await visit(page, '/no-such-page', '404 Page Not Found');
      await expectNoSeriousViolations(page, '404');

      // Free.
      const email = `axe-${width}-${Date.now()}@example.com`;
      await registerInBrowser(page, server.url, email);
      const free: Array<[string, string]> = [
        ['/', 'Download TikTok Videos Instantly'],
        ['/blog', 'My Blog'],
        ['/content-tools', 'Content Repurposing'],
        ['/subscription', 'Subscription'],
        ['/hashtag-generator', 'AI Hashtag Generator is part of Pro'],
        ['/audio-extractor', 'Audio Extractor is part of Pro'],
        ['/auto-captions', 'Auto Captions is part of Pro'],
        ['/trends', 'Trends Analysis is part of Pro'],
        ['/trending-videos', 'Trending Videos is part of Pro'],
      ];
      for (const [path, heading] of free) {
        await visit(page, path, heading);
        await expectNoSeriousViolations(page, `free ${path}`);
      }
      await page.getByRole('button', { name: /Your plan/ }).click();
      await page.getByTestId('plan-menu').waitFor();
      await expectNoSeriousViolations(page, 'plan menu');

      // Pro.
      expect((await server.cli(['user:grant-pro', email])).code).toBe(0);
      const pro: Array<[string, string]> = [
        ['/hashtag-generator', 'AI Hashtag Generator'],
        ['/audio-extractor', 'Audio Extractor'],
        ['/auto-captions', 'Auto Captions'],
        ['/trends', 'Trends Analysis'],
        ['/trending-videos', 'Trending Videos'],
      ];
      for (const [path, heading] of pro) {
        await visit(page, path, heading);
        await page.getByTestId('plan-badge').filter({ hasText: 'PRO' }).waitFor();
        await expectNoSeriousViolations(page, `pro ${path}`);
      }
      expect(found).toEqual([]);
      await context.close();
    });

    it('downloads with the keyboard only: signed out (with sign-up) and signed in', async () => {
      const { page, context } = await open(width);
      await page.goto(server.url);
      await page.getByLabel('TikTok or Bluesky or Reddit video URL').waitFor();
      const focused = () =>
        page.evaluate(
          () =>
            document.activeElement?.getAttribute('aria-label') ??
            document.activeElement?.id ??
            document.activeElement?.tagName,
        );
      async function tabTo(target: string) {
        for (let i = 0; i < 40; i++) {
          await page.keyboard.press('Tab');
          if ((await focused()) === target) return;
        }
        throw new Error(`Tab never reached ${target}`);
      }

      const v = tt.addVideo({ desc: 'Keyboard only', media: { size: 300_000 } });
      await tabTo('video-url');
      await page.keyboard.type(v.url);
      await page.keyboard.press('Enter');
      await page.getByTestId('video-card').waitFor();
      await tabTo('Download HD');
      await page.keyboard.press('Enter');
      // The account form takes the focus: type, Tab, type, Enter.
      await page.getByTestId('download-account').waitFor();
      await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.name === 'email');
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe('email');
      await page.keyboard.type(`keys-${width}-${Date.now()}@example.com`);
      await page.keyboard.press('Tab');
      await page.keyboard.type('correct horse battery');
      const first = page.waitForEvent('download');
      await page.keyboard.press('Enter');
      expect((await first).suggestedFilename()).toMatch(/\.mp4$/);
      await page.getByTestId('plan-badge').waitFor();
      await screenshot(page, `a11y-keyboard-signed-in-${width}`);

      // Signed in now: Tab to the field, type, Enter, Tab to Download, Enter.
      await page.goto(server.url);
      await page.getByTestId('plan-badge').waitFor();
      const w = tt.addVideo({ desc: 'Keyboard again', media: { size: 200_000 } });
      await tabTo('video-url');
      await page.keyboard.type(w.url);
      await page.keyboard.press('Enter');
      await page.getByTestId('video-title').filter({ hasText: 'Keyboard again' }).waitFor();
      await tabTo('Download HD');
      const second = page.waitForEvent('download');
      await page.keyboard.press('Enter');
      expect((await second).suggestedFilename()).toMatch(/\.mp4$/);
      await context.close();
    });
  });
}

// The curated trending list as a Pro creator sees it: empty state, Curate Video with Fetch Info
// from the fake TikTok, manual curation, filter, boost once, the Pro gate for free users.
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
  server = await startServer({ UPSTREAM_HOST_MAP: tt.hostMapJson });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tt?.close();
});

async function expectToast(page: Page, ...texts: string[]): Promise<void> {
  let toast = page.getByTestId('toast');
  for (const t of texts) toast = toast.filter({ hasText: t });
  await toast.first().waitFor();
}

async function signInPro(page: Page, email: string) {
  await registerInBrowser(page, server.url, email);
  const granted = await server.cli(['user:grant-pro', email]);
  expect(granted.code, granted.stderr).toBe(0);
  await page.goto(`${server.url}/trending-videos`);
  await page.getByRole('heading', { name: 'Trending Videos' }).waitFor();
}

describe('trending videos', () => {
  it('curates with Fetch Info, curates by hand, filters, boosts once and shows the count', async () => {
    const video = tt.addVideo({
      user: 'dancequeen',
      desc: 'Learn this dance in 30 seconds #dance',
      stats: { playCount: 1_234_567, diggCount: 89_000 },
    });
    const privateUrl = tt.addError('private');
    const { page, context } = await newPage(browser);
    await signInPro(page, `curator-${Date.now()}@example.com`);

    await page.getByText('No trending videos yet').waitFor();
    expect(await page.getByTestId('trending-count').innerText()).toBe('0 trending videos');
    await screenshot(page, 'trending-empty-desktop');
    await page.getByRole('button', { name: 'Curate First Video' }).click();
    await page.getByRole('heading', { name: 'Curate Video' }).waitFor();

    // Fetch Info: disabled when empty, refused under 10 characters, a failed lookup says so.
    const fetchInfo = page.getByRole('button', { name: 'Fetch Info' });
    expect(await fetchInfo.isDisabled()).toBe(true);
    await page.getByLabel('Video URL').fill('https://x');
    await fetchInfo.click();
    await expectToast(page, 'Could not fetch video info', 'Please fill in the details manually');
    await page.getByLabel('Video URL').fill(privateUrl);
    await fetchInfo.click();
    await page.getByRole('button', { name: 'Fetch Info' }).waitFor(); // back from 'Fetching...'
    await expectToast(page, 'Could not fetch video info');
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('');

    await page.getByLabel('Video URL').fill(video.url);
    await fetchInfo.click();
    await expectToast(page, 'Video info loaded');
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Learn this dance in 30 seconds #dance');
    expect(await page.getByLabel('Author').inputValue()).toBe('dancequeen');
    expect(await page.getByLabel('Description').inputValue()).toBe(''); // not a copy of the title
    expect(await page.getByLabel('Thumbnail URL').inputValue()).toBe(`/api/video/thumbnail/${video.id}`);
    expect(await page.getByLabel('Platform', { exact: true }).inputValue()).toBe('tiktok');
    await page.getByLabel('Tags').fill('dance, tutorial , , viral, fyp');
    await screenshot(page, 'trending-curate-form-desktop');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Video added successfully');
    const card = page.getByTestId('trending-card').filter({ hasText: 'Learn this dance' });
    await card.waitFor();
    expect(await page.getByTestId('trending-count').innerText()).toBe('1 trending videos');
    const cardText = await card.innerText();
    for (const s of ['tiktok', 'by dancequeen', '#dance', '#tutorial', '#viral', '+1 more', '1.2M', '89K', 'Curated '])
      expect(cardText).toContain(s);
    expect(cardText).not.toContain('#fyp');
    // The thumbnail comes through this product's thumbnail endpoint and really loads.
    await page.waitForFunction(() => {
      const img = document.querySelector('[data-testid="trending-card"] img') as HTMLImageElement | null;
      return !!img && img.complete && img.naturalWidth > 0;
    });
    expect(await card.getByRole('link', { name: 'View' }).getAttribute('href')).toBe(video.url);
    expect(await card.getByRole('link', { name: 'View' }).getAttribute('target')).toBe('_blank');

    // By hand, with the required-field check and Cancel resetting to defaults.
    await page.getByRole('button', { name: 'Curate Video' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Will be cancelled');
    await page.getByLabel('Platform', { exact: true }).selectOption('facebook');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Curate Video' }).click();
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('');
    expect(await page.getByLabel('Platform', { exact: true }).inputValue()).toBe('tiktok');
    expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('active');
    expect(await page.getByLabel('Tags').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Missing required fields', 'Please fill in title, video URL, and platform');
    await page.getByLabel('Video URL').fill('https://www.instagram.com/reel/Cabc123/');
    await page.getByLabel('Title', { exact: true }).fill('Reel transitions');
    await page.getByLabel('Platform', { exact: true }).selectOption('instagram');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Video added successfully');
    const reel = page.getByTestId('trending-card').filter({ hasText: 'Reel transitions' });
    await reel.getByTestId('thumbnail-placeholder').waitFor();
    expect(await page.getByTestId('trending-count').innerText()).toBe('2 trending videos');

    // Filter.
    await page.getByLabel('Platform filter').selectOption('instagram');
    await page.getByText('1 trending videos').waitFor();
    expect(await page.getByTestId('trending-card').count()).toBe(1);
    await page.getByLabel('Platform filter').selectOption('facebook');
    await page.getByText('No trending videos yet').waitFor();
    await page.getByLabel('Platform filter').selectOption('all');
    await page.getByText('2 trending videos').waitFor();

    // Boost once: the score moves to 1 and the button is spent.
    await card.getByRole('button', { name: 'Boost' }).click();
    await expectToast(page, 'Trending score updated');
    await card.getByRole('button', { name: 'Boosted' }).waitFor();
    expect(await card.getByTestId('trending-score').innerText()).toBe('1');
    expect(await card.getByRole('button', { name: 'Boosted' }).isDisabled()).toBe(true);
    // The boosted video now leads the list.
    expect(await page.getByTestId('trending-card').first().innerText()).toContain('Learn this dance');
    await screenshot(page, 'trending-list-desktop');

    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('heading', { name: 'Trending Videos' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'trending-list-mobile');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await context.close();
  });

  it('tells a free user it is a Pro feature', async () => {
    const { page, context } = await newPage(browser);
    await registerInBrowser(page, server.url, `free-${Date.now()}@example.com`);
    await page.goto(`${server.url}/trending-videos`);
    await page.getByText('This is a Pro feature. Upgrade to use it.').waitFor();
    expect(await page.getByRole('link', { name: 'Upgrade to Pro' }).getAttribute('href')).toBe('/subscription');
    expect(await page.getByRole('button', { name: 'Curate Video' }).count()).toBe(0);
    expect(await page.getByTestId('trending-count').count()).toBe(0);
    await screenshot(page, 'trending-free-user');
    await context.close();
  });
});

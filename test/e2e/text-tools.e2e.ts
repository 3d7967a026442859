// The hashtag generator (Pro) and content tools (free) as a creator uses them in Chromium: the
// founding texts and toasts (decision 0092), loading labels, result cards, Copy to the real clipboard, the AI suggestion
// label, the built-in fallback when the model refuses, and the 375px layout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  launchBrowser,
  newPage,
  registerInBrowser,
  screenshot,
  scrollSettled,
  startServer,
  type RunningServer,
} from '../helpers/e2e.js';
import { startFakeOpenAiChat } from '../fakes/fake-openai-chat.js';

let server: RunningServer;
let browser: Browser;
let llm: Awaited<ReturnType<typeof startFakeOpenAiChat>>;

beforeAll(async () => {
  llm = await startFakeOpenAiChat({ apiKey: 'sk-e2e', goodDelayMs: 700 });
  server = await startServer({
    LLM_BASE_URL: `${llm.url}/v1`,
    LLM_API_KEY: 'sk-e2e',
    LLM_MODEL: 'gpt-e2e',
    LLM_TIMEOUT_MS: '5000',
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await llm?.close();
});

const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title }).first();

async function signIn(page: Page, prefix: string, pro: boolean) {
  const email = `${prefix}${Date.now()}@example.com`;
  await registerInBrowser(page, server.url, email);
  if (pro) {
    expect((await server.cli(['user:grant-pro', email])).code).toBe(0);
    await page.reload();
    await page.getByTestId('plan-badge').filter({ hasText: 'PRO' }).first().waitFor();
  }
}

async function chips(page: Page, testId: string): Promise<string[]> {
  return page.getByTestId(testId).locator('li').allTextContents();
}

describe('hashtag generator', () => {
  it('validates, generates with the model, copies a card, and falls back to the built-in engine', async () => {
    const { page, context } = await newPage(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await signIn(page, 'tags', true);
    await page.goto(`${server.url}/hashtag-generator`);
    await page.getByRole('heading', { name: 'AI Hashtag Generator' }).waitFor();

    await page.getByLabel('Video Title').fill('   ');
    await page.getByRole('button', { name: 'Generate Hashtags' }).click();
    await toast(page, 'Video title required').getByText('Please enter a video title to generate hashtags').waitFor();
    expect(await toast(page, 'Video title required').getAttribute('data-variant')).toBe('destructive');

    llm.mode = 'good';
    await page.getByLabel('Video Title').fill('Sourdough bread for beginners');
    await page.getByLabel('Niche').fill('baking');
    await page.getByRole('button', { name: 'Generate Hashtags' }).click();
    await page.getByRole('button', { name: 'Generating...' }).waitFor();
    await toast(page, 'Hashtags generated!').waitFor();
    const sent = JSON.parse(llm.calls.at(-1)!.user);
    expect(sent).toMatchObject({ videoTitle: 'Sourdough bread for beginners', niche: 'baking' });
    expect(sent).not.toHaveProperty('videoDescription');

    for (const name of ['Trending Hashtags', 'Niche Hashtags', 'Mixed Strategy', 'Optimization Tips']) {
      await expect(page.getByRole('heading', { name }).isVisible()).resolves.toBe(true);
    }
    await expect(page.getByTestId('hashtags-niche').getByText('50K-500K uses').isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('suggestion-badge').textContent()).resolves.toBe('Suggestion · AI model');
    const mixed = await chips(page, 'hashtags-mixed');
    expect(mixed).toEqual(['#fyp', '#sourdough', '#bread', '#beginners', '#viral']);
    await expect(page.getByTestId('hashtag-tips').textContent()).resolves.toContain(
      'TikTok and Instagram now allow 5 hashtags per post',
    );
    await page.getByRole('heading', { name: 'Your hashtags' }).scrollIntoViewIfNeeded();
    await scrollSettled(page);
    await screenshot(page, 'hashtags-desktop');

    await page.getByRole('button', { name: 'Copy Mixed Strategy' }).click();
    await toast(page, 'Copied!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(mixed.join(' '));

    // The model refuses: the built-in engine answers, and the label says so.
    llm.mode = 'refusal';
    await page.getByLabel('Video Title').fill('Easy garlic butter pasta recipe');
    await page.getByRole('textbox', { name: /^Niche/ }).fill('');
    await page.getByRole('button', { name: 'Generate Hashtags' }).click();
    await page.getByTestId('suggestion-badge').filter({ hasText: 'built-in engine' }).waitFor();
    const niche = await chips(page, 'hashtags-niche');
    expect(niche.slice(0, 3).every((t) => /garlic|butter|pasta|recipe/.test(t))).toBe(true);
    await page.getByRole('button', { name: 'Copy Niche Hashtags' }).click();
    await toast(page, 'Copied!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(niche.join(' '));
    await context.close();
  });

  it('tells a free user it is a Pro feature, on the page and from the server', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, 'freetags', false);
    await page.goto(`${server.url}/hashtag-generator`);
    await page.getByTestId('pro-upsell').getByText('This is a Pro feature. Upgrade to use it.').waitFor();
    expect(await page.getByTestId('pro-upsell').count()).toBe(1); // once, not twice
    expect(await page.getByRole('button', { name: 'Generate Hashtags' }).count()).toBe(0);
    const res = await page.evaluate(async () => {
      const r = await fetch('/api/ai/hashtags', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ videoTitle: 'My morning routine', platform: 'social media' }),
      });
      return { status: r.status, body: await r.json() };
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('billing.pro_required');
    await context.close();
  });

  it('fits a 375px screen', async () => {
    const { page, context } = await newPage(browser, { width: 375, height: 800 });
    await signIn(page, 'mobiletags', true);
    llm.mode = 'refusal';
    await page.goto(`${server.url}/hashtag-generator`);
    await page.getByLabel('Video Title').fill('20 min full body HIIT workout at home, no equipment');
    await page.getByRole('button', { name: 'Generate Hashtags' }).click();
    await page.getByTestId('hashtags-mixed').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await scrollSettled(page); // the page scrolls to the results by itself
    await screenshot(page, 'hashtags-mobile');
    await context.close();
  });
});

describe('content tools', () => {
  it('validates, optimizes for TikTok, copies the caption, and rejects a malformed answer', async () => {
    const { page, context } = await newPage(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await signIn(page, 'content', false); // free users may use it
    await page.goto(`${server.url}/content-tools`);
    await page.getByRole('heading', { name: 'Content Repurposing' }).waitFor();
    expect(await page.getByLabel('tiktok').isChecked()).toBe(true);

    await page.getByRole('button', { name: 'Optimize' }).click();
    await toast(page, 'Content required').getByText('Please enter some content to optimize').waitFor();
    await page
      .getByLabel('Content', { exact: true })
      .fill('<b>My first sourdough loaf.</b> It took three days but it was worth it! #bread');
    await page.getByLabel('tiktok').uncheck();
    await page.getByRole('button', { name: 'Optimize' }).click();
    await toast(page, 'Platform required').getByText('Please select at least one platform').waitFor();
    await page.getByLabel('tiktok').check();

    llm.mode = 'good';
    await page.getByRole('button', { name: 'Optimize' }).click();
    await page.getByRole('button', { name: 'Optimizing...' }).waitFor();
    await toast(page, 'Content optimized!').getByText('Optimized for 1 platform(s)').waitFor();
    const card = page.getByTestId('optimized-tiktok');
    const caption = (await card.getByTestId('optimized-caption').textContent())!;
    // Markup arrives as plain text stripped of tags, never as HTML.
    expect(caption.startsWith('My first sourdough loaf.\n\nIt took three days but it was worth it!')).toBe(true);
    expect(await card.locator('b').count()).toBe(0);
    expect(caption.length).toBeLessThanOrEqual(2200);
    await expect(card.getByText('/ 2,200 characters').isVisible()).resolves.toBe(true);
    await expect(card.getByText('Tuesday 4–6 pm').isVisible()).resolves.toBe(true);
    await expect(card.getByTestId('suggestion-badge').textContent()).resolves.toBe('Suggestion · AI model');
    await scrollSettled(page);
    await screenshot(page, 'content-tools-desktop');

    await card.getByRole('button', { name: 'Copy TikTok caption' }).click();
    await toast(page, 'Copied!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(caption);

    // A response without a platforms list is refused by the screen (decision 0092 'Content optimise input').
    await page.route('**/api/content/optimize', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"result":"ok"}' }),
    );
    await page.getByRole('button', { name: 'Optimize' }).click();
    await toast(page, 'Optimization failed').getByText('Invalid optimization response format').waitFor();
    await page.unroute('**/api/content/optimize');
    await context.close();
  });

  it('answers with the built-in engine when the model sends broken JSON, and fits a 375px screen', async () => {
    const { page, context } = await newPage(browser, { width: 375, height: 800 });
    await signIn(page, 'mobilecontent', false);
    llm.mode = 'broken';
    await page.goto(`${server.url}/content-tools`);
    await page
      .getByLabel('Content', { exact: true })
      .fill('Three budget tips for Lisbon. Walk the hills, eat at tascas, and ride tram 28 early!');
    await page.getByRole('button', { name: 'Optimize' }).click();
    await page
      .getByTestId('optimized-tiktok')
      .getByTestId('suggestion-badge')
      .filter({ hasText: 'built-in engine' })
      .waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await scrollSettled(page);
    await screenshot(page, 'content-tools-mobile');
    await context.close();
  });
});

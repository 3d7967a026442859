// The Trends screen as a Pro user sees it: data collected at start from fake sources on
// 127.0.0.1 (TikTok One fixture, RSS and Atom feeds, a broken feed) plus first-party
// observations; the error shown to a free user and Try Again after upgrading; the empty state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import {
  launchBrowser,
  newPage,
  registerInBrowser,
  screenshot,
  startServer,
  type RunningServer,
} from '../helpers/e2e.js';
import { createPostgresDatabase } from '../helpers/test-db.js';
import { startFakeTrendSources, type FakeTrendSources } from '../fakes/fake-trend-sources.js';

let browser: Browser;
let fake: FakeTrendSources;
let withData: RunningServer;
let empty: RunningServer;
let database: { url: string; drop(): Promise<void> };

async function waitForCollectors(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (let i = 0; i < 200; i++) {
      const { rows } = await c.query('select count(*)::int as n from collector_runs where finished_at is not null');
      if (rows[0].n >= 4) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('collectors did not run');
  } finally {
    await c.end();
  }
}

async function seedObservations(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const day = 86_400_000;
  const rows: Array<[string, string, string[], number, number, number, string, string, number]> = [
    ['7301', 'dancequeen', ['dance', 'fyp'], 120_000, 9_000, 0.1, 'Levitating (Remix)', 'Dua Lipa', 203],
    [
      '7302',
      'chefmaria',
      ['recipe', 'foodtok', 'dinner', 'easyrecipe'],
      48_000,
      3_100,
      0.5,
      'original sound - chefmaria',
      'chefmaria',
      61,
    ],
    ['7303', 'dancequeen', ['dance'], 30_000, 2_000, 3, 'Levitating (Remix)', 'Dua Lipa', 203],
  ];
  for (const [id, author, tags, plays, likes, daysAgo, music, artist, dur] of rows) {
    await c.query(
      `insert into video_observations (video_id, description, author, author_followers, hashtags, music_id,
        music_title, music_author, music_duration, plays, likes, observed_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        id,
        `Video ${id} ${tags.map((t) => `#${t}`).join(' ')}`,
        author,
        250_000,
        tags,
        `m-${music}`,
        music,
        artist,
        dur,
        plays,
        likes,
        new Date(Date.now() - daysAgo * day),
      ],
    );
  }
  await c.end();
}

beforeAll(async () => {
  fake = await startFakeTrendSources();
  database = await createPostgresDatabase();
  const feeds = [
    'https://newsroom.tiktok.com/en-us/rss',
    'https://www.theverge.com/rss/tiktok/index.xml',
    'https://www.socialmediatoday.com/feeds/news/',
    'https://feeds.example.com/broken',
  ].join(',');
  [withData, empty] = await Promise.all([
    startServer({
      DATABASE_URL: database.url,
      UPSTREAM_HOST_MAP: JSON.stringify(fake.hostMap),
      TRENDS_NEWS_FEEDS: feeds,
      TRENDS_COLLECTORS: 'on',
      TRENDS_FETCH_TIMEOUT_SECONDS: '3',
    }),
    startServer({ TRENDS_COLLECTORS: 'off' }),
  ]);
  await waitForCollectors(database.url);
  await seedObservations(database.url);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await withData?.stop();
  await empty?.stop();
  await database?.drop();
  await fake?.close();
});

async function proUser(page: Page, server: RunningServer, email: string) {
  await registerInBrowser(page, server.url, email);
  const r = await server.cli(['user:grant-pro', email]);
  expect(r.code, r.stderr).toBe(0);
}

describe('Trends screen', () => {
  it('shows the Pro upsell (not an error) to a free user, then the data after upgrading', async () => {
    const { page, context } = await newPage(browser);
    const email = `trends-${Date.now()}@example.com`;
    await registerInBrowser(page, withData.url, email);
    await page.goto(`${withData.url}/trends`);
    const upsell = page.getByTestId('pro-upsell');
    await upsell.getByText('This is a Pro feature. Upgrade to use it.').waitFor();
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await expect(page.getByText('Try Again').count()).resolves.toBe(0);
    await screenshot(page, 'trends-free-upsell');
    expect((await withData.cli(['user:grant-pro', email])).code).toBe(0);
    await page.reload();
    await page.getByRole('heading', { name: 'Trending Hashtags' }).waitFor();
    await expect(upsell.count()).resolves.toBe(0);
    await expect(page.getByText('#starbucks').first().isVisible()).resolves.toBe(true);
    await context.close();
  });

  it('shows every section with data, sources, category colours and dashes for missing figures', async () => {
    const { page, context } = await newPage(browser);
    await proUser(page, withData, `trends-data-${Date.now()}@example.com`);
    await page.goto(`${withData.url}/trends`);
    const hashtags = page.getByTestId('trending-hashtags');
    await hashtags.getByText('#starbucks').waitFor();
    for (const h of [
      'Key Insights',
      'Platform Analytics',
      'Trending Hashtags',
      'Trending Songs',
      'Trending Creators',
      'Trending Videos',
      'TikTok News',
    ]) {
      await expect(page.getByRole('heading', { name: h }).isVisible(), h).resolves.toBe(true);
    }
    await expect(
      page
        .getByTestId('key-insights')
        .getByText('#starbucks leads TikTok One (US, last 7 days) with 74,323 posts')
        .isVisible(),
    ).resolves.toBe(true);
    await expect(hashtags.getByText(/Source: TikTok One \(US, last 7 days\)/).isVisible()).resolves.toBe(true);
    // TikTok One gives no view count: shown as '—', never a made-up number.
    const starbucksRow = hashtags.locator('li', { hasText: '#starbucks' });
    await expect(starbucksRow.getByText('—').first().isVisible()).resolves.toBe(true);
    const foodBadge = starbucksRow.getByText('Food', { exact: true });
    expect(await foodBadge.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(
      await hashtags
        .locator('li', { hasText: '#haydenpanettiere' })
        .getByText(/^(General|Entertainment|Lifestyle)$/)
        .first()
        .evaluate((el) => getComputedStyle(el).backgroundColor),
    );
    const songs = page.getByTestId('trending-songs');
    await expect(songs.getByText('Levitating (Remix)').isVisible()).resolves.toBe(true);
    await expect(songs.getByText('Dua Lipa · Genre: —').isVisible()).resolves.toBe(true);
    await expect(songs.getByText('3:23').first().isVisible()).resolves.toBe(true);
    const creators = page.getByTestId('trending-creators');
    await expect(creators.getByText('@dancequeen').isVisible()).resolves.toBe(true);
    await expect(creators.getByText('150K').isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('trending-videos').getByText('+1 more').isVisible()).resolves.toBe(true);
    const news = page.getByTestId('tiktok-news');
    await expect(
      news.getByRole('link', { name: 'Introducing new tools to help creators earn on TikTok' }).getAttribute('href'),
    ).resolves.toBe('https://newsroom.tiktok.com/en-us/new-tools-for-creators');
    await expect(news.getByText('TikTok adds longer uploads for all users').isVisible()).resolves.toBe(true);
    await expect(news.getByText('Instagram tests a new feed layout').count()).resolves.toBe(0);
    // The broken feed is visible as a failing source; the rest of the screen is unaffected.
    const status = page.getByTestId('source-status');
    await status.getByText('Source status (1 failing)').click();
    await expect(
      status.getByText(/Failed: https:\/\/feeds\.example\.com\/broken: not well-formed XML/).isVisible(),
    ).resolves.toBe(true);
    const card = page.getByTestId('platform-analytics');
    // (9,000 + 3,100 + 2,000) likes / (120,000 + 48,000 + 30,000) views = 7.1 %
    await expect(card.getByText('7.1%').isVisible()).resolves.toBe(true);
    await expect(card.getByText('No earlier week to compare yet').isVisible()).resolves.toBe(true);
    await expect(card.getByText(/3 videos processed by this toolkit/).isVisible()).resolves.toBe(true);
    await screenshot(page, 'trends-desktop');
    await page.getByTestId('tiktok-news').scrollIntoViewIfNeeded();
    await screenshot(page, 'trends-desktop-news');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByTestId('trending-hashtags').scrollIntoViewIfNeeded();
    await screenshot(page, 'trends-mobile');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await context.close();
  });

  it('shows the skeleton while loading, then the empty state with Retry on a fresh install, refetching every 5 minutes', async () => {
    const { page, context } = await newPage(browser, { width: 375 });
    await proUser(page, empty, `trends-empty-${Date.now()}@example.com`);
    let calls = 0;
    page.on('request', (r) => r.url().endsWith('/api/trends/analysis') && calls++);
    // Hold the first answer a moment so the loading skeleton can be seen.
    await page.route('**/api/trends/analysis', async (route) => {
      await new Promise((r) => setTimeout(r, 1000));
      await route.continue();
    });
    await page.clock.install();
    await page.goto(`${empty.url}/trends`);
    await page.getByTestId('trends-skeleton').waitFor();
    await page.getByText('No trends data yet').waitFor();
    await page.unroute('**/api/trends/analysis');
    expect(calls).toBe(1);
    // Refetched every 5 minutes (decision 0092 'Data fetching'). The timer restarts with every answer, so this runs from the
    // answer on screen; after a Retry its answer could land after the clock jump and restart it.
    await page.clock.runFor(5 * 60_000 + 1000);
    await expect.poll(() => calls, { timeout: 10_000 }).toBe(2);
    await page.getByRole('button', { name: 'Retry' }).click(); // waits while the refetch is in flight
    await expect.poll(() => calls).toBe(3);
    await expect(page.getByText('No trends data yet').isVisible()).resolves.toBe(true);
    await screenshot(page, 'trends-empty-mobile');
    await context.close();
  });
});

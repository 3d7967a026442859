import fs from 'node:fs';
import path from 'node:path';
import { createSchedules } from '../../src/server/services/schedules.service.js';
import { createJobDispatcher } from '../../src/server/jobs/dispatcher.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeTrendSources, TEST_FEEDS, type FakeTrendSources } from '../fakes/fake-trend-sources.js';
import { trendsAnalysisResponse, type TrendsAnalysis } from '../../src/shared/contracts/trends.js';
import { createTrendsCollectors, collectorsConfigFrom } from '../../src/server/services/trends-collectors.service.js';
import { createTikTokOneAdapter } from '../../src/server/adapters/trends/tiktok-one.adapter.js';
import { createFeedsAdapter } from '../../src/server/adapters/trends/feeds.adapter.js';
import { trendsHttpFrom } from '../../src/server/adapters/trends/guarded-http.js';

const FIX = path.resolve(import.meta.dirname, '../fixtures/tiktok');
const realItem = () =>
  JSON.parse(fs.readFileSync(path.join(FIX, 'real_2026-09-28_video_7504044860782021930.scope_tail.json'), 'utf8'))[
    'webapp.video-detail'
  ].itemInfo.itemStruct;

describe.each(DB_KINDS)('trends analysis (%s)', (db) => {
  let t: TestApp;
  let fake: FakeTrendSources;
  let pro: Awaited<ReturnType<TestApp['signUp']>>;

  const analysis = async (): Promise<TrendsAnalysis> => {
    t.ctx.services.trendsAnalysis.invalidate();
    const res = await pro.get('/api/trends/analysis');
    expect(res.status).toBe(200);
    return trendsAnalysisResponse.parse(await res.json());
  };

  beforeAll(async () => {
    fake = await startFakeTrendSources();
    t = await createTestApp({
      db,
      env: {
        UPSTREAM_HOST_MAP: JSON.stringify(fake.hostMap),
        TRENDS_COLLECTORS: 'off', // runs are triggered by the tests
        TRENDS_NEWS_FEEDS: TEST_FEEDS.join(','),
        TRENDS_FETCH_TIMEOUT_SECONDS: '1',
      },
    });
    pro = await t.signUp({ pro: true });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('is Pro only: 401 signed out, 403 billing.pro_required for a free user', async () => {
    expect((await t.client().get('/api/trends/analysis')).status).toBe(401);
    const free = await t.signUp();
    const res = await free.get('/api/trends/analysis');
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      code: 'billing.pro_required',
      message: 'This is a Pro feature. Upgrade to use it.',
    });
  });

  it('answers a fresh install with empty sections, nulls and no insights', async () => {
    const a = await analysis();
    expect(a.last_updated).toBeNull();
    expect(a.insights).toEqual([]);
    for (const k of [
      'trending_hashtags',
      'trending_songs',
      'trending_creators',
      'trending_videos',
      'tiktok_news',
    ] as const) {
      expect(a[k]).toEqual([]);
      expect(a.sources[k]).toEqual({ source: null, collectedAt: null });
    }
    expect(a.platform_analytics).toMatchObject({ engagementRate: null, engagementChange: null, videos: 0 });
    expect(a.collectors).toEqual([]);
  });

  it('collects TikTok One hashtags across industry views into a dated snapshot', async () => {
    const [run] = await t.ctx.services.trendsCollectors.tiktokOne.runOnce();
    expect(run).toEqual({ source: 'tiktok_one', items: 44, error: null });
    expect(fake.hashtagRequests).toHaveLength(16);
    expect(fake.hashtagRequests[0]).toEqual({ timeRange: 7, countryCode: 'US', page: 1, limit: 20 });
    expect(fake.hashtagRequests.slice(1).every((b) => Number.isInteger(b.industryID))).toBe(true);

    const a = await analysis();
    expect(a.trending_hashtags).toHaveLength(15);
    expect(a.trending_hashtags[0]).toEqual({
      hashtag: 'starbucks',
      category: 'Food',
      views: null, // the list gave no view count
      growth: null, // the curve ends 0.7 -> 0.0: no meaningful ratio
      posts: 74323,
      growthBasis: null,
      source: 'TikTok One (US, last 7 days)',
    });
    // haydenpanettiere's curve ends 76.1 -> 74.1: -2.6 % day over day.
    expect(a.trending_hashtags.find((h) => h.hashtag === 'haydenpanettiere')).toMatchObject({
      growth: -2.6,
      growthBasis: 'curve_day_over_day',
    });
    expect(a.insights).toContain('#starbucks leads TikTok One (US, last 7 days) with 74,323 posts');
    expect(a.sources.trending_hashtags.source).toBe('TikTok One (US, last 7 days)');
    expect(Date.now() - Date.parse(a.sources.trending_hashtags.collectedAt!)).toBeLessThan(60_000);
    expect(a.last_updated).toBe(a.sources.trending_hashtags.collectedAt);
    expect(a.trending_songs).toEqual([]); // no source, never invented
  });

  it('collects news: accepts RSS and Atom, skips undated and off-topic items, dedupes, records failing feeds', async () => {
    const started = Date.now();
    const runs = await t.ctx.services.trendsCollectors.news.runOnce();
    expect(Date.now() - started).toBeLessThan(10_000); // the hanging feed is cut off
    const by = Object.fromEntries(runs.map((r) => [r.source, r]));
    expect(by['news:newsroom.tiktok.com/missing']).toEqual({
      source: 'news:newsroom.tiktok.com/missing',
      items: 3,
      error: null,
    });
    expect(by['news:www.theverge.com/rss/tiktok/index.xml']).toMatchObject({ items: 3, error: null });
    expect(by['news:www.socialmediatoday.com/feeds/news']).toMatchObject({ items: 1, error: null });
    expect(by['news:feeds.example.com/html'].error).toMatch(/HTML, not a feed/);
    expect(by['news:feeds.example.com/broken'].error).toMatch(/well-formed XML/);
    expect(by['news:feeds.example.com/hang'].error).toBe('https://feeds.example.com/hang: no answer within 1 s');
    expect(fake.hits.get('/missing')).toBe(1); // first Newsroom candidate tried, then the next

    const a = await analysis();
    const titles = a.tiktok_news.map((n) => n.title);
    expect(titles).toHaveLength(6); // the Verge copy of the Newsroom post is stored once
    expect(titles).not.toContain('Undated item is ignored');
    expect(titles).not.toContain('Instagram tests a new feed layout');
    const byTitle = Object.fromEntries(a.tiktok_news.map((n) => [n.title, n]));
    expect(byTitle['Introducing new tools to help creators earn on TikTok']).toMatchObject({
      category: 'creator',
      source: 'Newsroom | TikTok',
    });
    expect(byTitle['Introducing new tools to help creators earn on TikTok'].summary).toBe(
      'Creators can now apply to the Creator Rewards Program & reach more fans.',
    );
    expect(byTitle['New Spotify integration lets you save songs from TikTok'].category).toBe('music');
    expect(byTitle['TikTok Shop pushes brands toward live shopping ads']).toMatchObject({
      category: 'business',
      source: 'TikTok | The Verge',
    });
    expect(byTitle['The "silent review" challenge goes viral on TikTok'].category).toBe('viral');
    expect(byTitle['An update on our safety features for teens'].category).toBe('platform');
    // newest first, real dates
    const stamps = a.tiktok_news.map((n) => Date.parse(n.timestamp));
    expect([...stamps].sort((x, y) => y - x)).toEqual(stamps);
    expect(a.insights.some((i) => /^\d+ TikTok news stories published in the last 24 h$/.test(i))).toBe(true);
    // each failing feed is visible next to the working ones
    expect(a.collectors.find((c) => c.source === 'tiktok_one')).toMatchObject({ items: 44, error: null });
    expect(a.collectors.find((c) => c.source === 'news:feeds.example.com/broken')!.error).toMatch(/well-formed XML/);
    expect(a.collectors.filter((c) => c.source.startsWith('news:'))).toHaveLength(6);

    // a second run stores nothing twice
    await t.ctx.services.trendsCollectors.news.runOnce();
    expect((await analysis()).tiktok_news).toHaveLength(6);
  });

  it('keeps answering when TikTok One answers "deprecated", and records the failure', async () => {
    fake.tiktokOneMode = 'deprecated';
    const before = fake.hashtagRequests.length;
    const [run] = await t.ctx.services.trendsCollectors.tiktokOne.runOnce();
    fake.tiktokOneMode = 'ok';
    expect(run.items).toBe(0);
    expect(run.error).toMatch(/deprecated/);
    expect(fake.hashtagRequests.length - before).toBe(1); // no point asking the industry views
    const a = await analysis();
    expect(a.collectors.find((c) => c.source === 'tiktok_one')!.error).toMatch(/deprecated/);
    expect(a.trending_hashtags[0].hashtag).toBe('starbucks'); // the last good snapshot stays, with its date
    expect(a.tiktok_news.length).toBeGreaterThan(0);
    const runs = await t.ctx.repos.trends.runsOf('tiktok_one');
    expect(runs.map((r) => r.error === null)).toEqual([true, false]);
    expect(runs.every((r) => r.finishedAt !== null)).toBe(true);
  });

  it('records first-party observations from video lookups and aggregates them over days', async () => {
    const observe = (item: unknown) => {
      for (const fn of t.ctx.videoObservers)
        fn({
          ref: { platform: 'tiktok', id: '1', url: '' },
          raw: item as Record<string, unknown>,
          video: {} as never,
          session: null,
        });
    };
    observe(realItem());
    observe({ not: 'a video' }); // ignored, never throws
    await t.ctx.services.trendsObservations.flush();
    const now = Date.now();
    const day = 86_400_000;
    await t.ctx.repos.trends.recordObservations([
      {
        videoId: '900',
        author: 'petlover',
        hashtags: ['smallbusiness'],
        plays: 2000,
        likes: 100,
        observedAt: new Date(now - 2 * day),
      },
      {
        videoId: '901',
        author: 'petlover',
        hashtags: ['smallbusiness'],
        plays: 1000,
        likes: 50,
        observedAt: new Date(now - 5 * day),
      },
    ]);
    const a = await analysis();
    // #smallbusiness: last 24 h 71,400 views against (2000 + 1000) / 6 = 500 a day -> +14,180 %.
    const tag = a.trending_hashtags.find(
      (h) => h.hashtag === 'smallbusiness' && h.source.startsWith('Videos processed'),
    )!;
    expect(tag).toMatchObject({
      views: 74400,
      posts: 3,
      growth: 14180,
      growthBasis: 'observations_24h_vs_6d',
      category: 'Educational',
    });
    expect(a.trending_songs[0]).toEqual({
      title: 'original sound - TJ Robertson',
      artist: 'TJ Robertson',
      genre: null,
      uses: 1,
      duration: 251,
    });
    expect(a.trending_creators[0]).toMatchObject({
      username: 'tjrobertson52',
      followers: 20700,
      verified: false,
      recentViews: 71400,
    });
    expect(a.trending_videos[0]).toMatchObject({
      creator: 'tjrobertson52',
      views: 71400,
      likes: 1819,
      hashtags: ['ai', 'marketingtips', 'smallbusiness'],
    });
    expect(a.trending_videos[0].title.length).toBeLessThanOrEqual(72);
    expect(a.sources.trending_videos.source).toBe('Videos processed by this toolkit (last 7 days)');
    // (1819 + 100 + 50) / (71400 + 2000 + 1000) = 2.6 %
    expect(a.platform_analytics).toMatchObject({ engagementRate: 2.6, engagementChange: null, videos: 3 });
    expect(a.insights).toContain('#smallbusiness views up 14180% in 24 h among videos processed here');
  });

  it('answers from storage quickly and from cache on repeat', async () => {
    await analysis();
    const started = performance.now();
    const res = await pro.get('/api/trends/analysis');
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe.each(DB_KINDS)('trend collectors on a schedule (%s)', (db) => {
  it('run first at start when on, recorded, without any user request', { timeout: 120_000 }, async () => {
    const fake = await startFakeTrendSources();
    const t = await createTestApp({
      db,
      env: {
        UPSTREAM_HOST_MAP: JSON.stringify(fake.hostMap),
        TRENDS_COLLECTORS: 'on',
        TRENDS_NEWS_FEEDS: 'https://newsroom.tiktok.com/en-us/rss',
        TRENDS_COUNTRY: 'GB',
        TRENDS_PERIOD: '30',
      },
    });
    try {
      expect(t.ctx.schedules.tasks.map((j) => j.name)).toEqual(
        expect.arrayContaining(['trends:tiktok-one', 'trends:news']),
      );
      await expect
        .poll(async () => (await t.ctx.repos.trends.latestRuns()).filter((r) => r.finishedAt).length, {
          timeout: 15_000,
        })
        .toBe(2);
      expect(fake.hashtagRequests[0]).toMatchObject({ countryCode: 'GB', timeRange: 30 });
      const snap = await t.ctx.repos.trends.latestSnapshot('tiktok_one', 'hashtags');
      expect(snap!.data).toMatchObject({ country: 'GB', period: 30 });

      // A second node on the same database skips its turn: the sources were just asked.
      const requestsBefore = fake.hashtagRequests.length;
      const runsBefore = (await t.ctx.repos.trends.runsOf('tiktok_one')).length;
      const turns: Array<[string, boolean]> = [];
      const otherNode = createTrendsCollectors({
        repo: t.ctx.repos.trends,
        tiktokOne: createTikTokOneAdapter(trendsHttpFrom(t.ctx.adapters.http)),
        feeds: createFeedsAdapter(trendsHttpFrom(t.ctx.adapters.http)),
        config: collectorsConfigFrom(t.ctx.config),
        logger: t.ctx.logger,
      });
      const otherSchedules = createSchedules({
        jobs: createJobDispatcher({ queue: null as never, limits: { media: 60, batchItem: 60 } }),
        queue: null as never,
        runs: t.ctx.repos.scheduleRuns,
        logger: t.ctx.logger,
        onTurn: (name, ran) => turns.push([name, ran]),
      });
      for (const task of otherNode.tasks) otherSchedules.add(task);
      for (const task of otherNode.tasks) await otherSchedules.runNow(task.name);
      expect(turns.sort()).toEqual([
        ['trends:news', false],
        ['trends:retention', false],
        ['trends:tiktok-one', false],
      ]);
      expect(fake.hashtagRequests.length).toBe(requestsBefore);
      expect((await t.ctx.repos.trends.runsOf('tiktok_one')).length).toBe(runsBefore);

      // Stopping drops a hanging request at once (the deadline here is 15 s) and records the run.
      fake.tiktokOneMode = 'hang';
      const stop = new AbortController();
      const pending = t.ctx.services.trendsCollectors.tiktokOne.runOnce(stop.signal);
      await expect.poll(() => fake.hashtagRequests.length).toBe(requestsBefore + 1);
      const stoppedAt = Date.now();
      stop.abort();
      const [stopped] = await pending;
      expect(Date.now() - stoppedAt).toBeLessThan(2000);
      expect(stopped).toMatchObject({ items: 0, error: expect.stringMatching(/stopped/) });
      expect((await t.ctx.repos.trends.latestSnapshot('tiktok_one', 'hashtags'))!.data).toMatchObject({
        country: 'GB',
      });
    } finally {
      await t.close();
      await fake.close();
    }
  });
});

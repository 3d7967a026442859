// Background collectors for outside trend sources: TikTok One hashtags and news feeds. Each run is
// recorded in collector_runs (source, time, items, error) so a failing source is visible; a
// failing source never touches the others. Never run on a user's request.
import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { TrendsRepository } from '../db/repositories/trends.repository.js';
import type { TikTokOneAdapter } from '../adapters/trends/tiktok-one.adapter.js';
import type { FeedsAdapter, FeedItem } from '../adapters/trends/feeds.adapter.js';
import { categoriseNews } from './trends-categories.js';
import type { ScheduledTask } from './schedules.service.js';

export const TIKTOK_ONE_SOURCE = 'tiktok_one';
export const HASHTAGS_KIND = 'hashtags';

export interface CollectorsConfig {
  enabled: boolean;
  tiktokOne: boolean;
  news: boolean;
  country: string;
  period: number;
  feeds: string[];
  intervalMs: number;
}

export interface RunResult {
  source: string;
  items: number;
  error: string | null;
  /** Not tried this turn: the source is failing and backing off. */
  skipped?: true;
}

/** The first reason of a run's error, without the URL it names, in a few words. */
export function shortReason(error: string): string {
  const first = error
    .split(/\n|; /)[0]
    .replace(/^no hashtags: /, '')
    .replace(/^https?:\/\/\S+: /, '');
  return first.length > 80 ? `${first.slice(0, 79)}…` : first;
}

/** A collector: run now (tests, the CLI), or every interval as a scheduled task (schedules.service.ts). */
export interface Collector extends ScheduledTask {
  runOnce(signal?: AbortSignal): Promise<RunResult[]>;
}

function canonicalUrl(u: string): string | null {
  try {
    const url = new URL(u);
    return `${url.hostname.toLowerCase().replace(/^www\./, '')}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

export function newsDedupeKey(item: Pick<FeedItem, 'url' | 'title'>): string {
  const canon = item.url ? canonicalUrl(item.url) : null;
  const basis = canon
    ? `url:${canon}`
    : `title:${item.title
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim()}`;
  return crypto.createHash('sha256').update(basis).digest('hex');
}

/** Feeds whose URL names TikTok are on topic; items of general feeds must mention TikTok. */
export function isRelevant(feedUrl: string, item: FeedItem): boolean {
  if (/tiktok/i.test(feedUrl)) return true;
  return /tik\s?tok/i.test(`${item.title} ${item.summary ?? ''}`);
}

export function createTrendsCollectors(deps: {
  repo: TrendsRepository;
  tiktokOne: TikTokOneAdapter;
  feeds: FeedsAdapter;
  config: CollectorsConfig;
  logger: Logger;
  onData?: () => void;
}) {
  const { repo, config, logger } = deps;

  // A failing source (no internet, a site down) says so once in one short line, then backs off
  // quietly: scheduled turns skip it 1, 3, 7… times (at most a day), until it answers again. The
  // full reason is in its recorded run (Source status) and at debug level (issue 31).
  const failing = new Map<string, { failures: number; skip: number }>();
  const maxSkip = Math.max(0, Math.floor(86_400_000 / config.intervalMs) - 1);

  async function recorded(source: string, scheduled: boolean, work: () => Promise<number>): Promise<RunResult> {
    const state = failing.get(source);
    if (scheduled && state && state.skip > 0) {
      state.skip--;
      return { source, items: 0, error: null, skipped: true };
    }
    const id = await repo.startRun(source);
    let items = 0;
    let error: string | null = null;
    try {
      items = await work();
    } catch (err) {
      error = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
    }
    await repo.finishRun(id, items, error);
    if (error) {
      const failures = (state?.failures ?? 0) + 1;
      failing.set(source, { failures, skip: Math.min(2 ** (failures - 1) - 1, maxSkip) });
      if (failures === 1)
        logger.warn(`trend source ${source} failed (${shortReason(error)}); trying again later, quietly`);
      logger.debug({ source, error, failures }, 'trend source failed again');
    } else if (state) {
      failing.delete(source);
      logger.info(`trend source ${source} answers again`);
    }
    return { source, items, error };
  }

  async function collectTikTokOne(signal?: AbortSignal, scheduled = false): Promise<RunResult[]> {
    const result = await recorded(TIKTOK_ONE_SOURCE, scheduled, async () => {
      const r = await deps.tiktokOne.fetchHashtags(config.country, config.period, signal);
      if (signal?.aborted) throw new Error('stopped before the run finished'); // no partial snapshot
      if (r.items.length === 0) throw new Error(`no hashtags: ${[...new Set(r.failures)].slice(0, 3).join('; ')}`);
      await repo.addSnapshot(TIKTOK_ONE_SOURCE, HASHTAGS_KIND, {
        country: r.country,
        period: r.period,
        viewsOk: r.viewsOk,
        viewsFailed: r.failures.length,
        items: r.items,
      });
      return r.items.length;
    });
    deps.onData?.();
    return [result];
  }

  async function collectNews(signal?: AbortSignal, scheduled = false): Promise<RunResult[]> {
    const results: RunResult[] = [];
    for (const entry of config.feeds) {
      if (signal?.aborted) break;
      const firstUrl = entry.split('|')[0].trim();
      // One source per entry: host and path, so two feeds of one site stay apart in the run list.
      let name = firstUrl;
      try {
        const u = new URL(firstUrl);
        name = `${u.hostname}${u.pathname.replace(/\/+$/, '')}`;
      } catch {
        /* recorded below as the failure */
      }
      results.push(
        await recorded(`news:${name}`.slice(0, 50), scheduled, async () => {
          const feed = await deps.feeds.fetchFeed(entry, signal);
          const seen = new Set<string>();
          const rows = [];
          for (const item of feed.items) {
            if (!isRelevant(feed.url, item)) continue;
            const dedupeKey = newsDedupeKey(item);
            if (seen.has(dedupeKey)) continue;
            seen.add(dedupeKey);
            rows.push({
              dedupeKey,
              title: item.title,
              summary: item.summary,
              url: item.url,
              source: (item.source ?? feed.title).slice(0, 255),
              category: categoriseNews(item.title, item.summary),
              publishedAt: item.publishedAt,
            });
          }
          await repo.addNews(rows);
          return rows.length;
        }),
      );
    }
    deps.onData?.();
    return results;
  }

  // runOnce (tests, the CLI) tries every source now; run (the schedule) lets failing ones back off.
  const make = (name: string, run: (signal?: AbortSignal, scheduled?: boolean) => Promise<RunResult[]>): Collector => {
    let running: Promise<RunResult[]> | null = null;
    const start = (signal: AbortSignal | undefined, scheduled: boolean) =>
      (running ??= run(signal, scheduled).finally(() => (running = null)));
    return {
      name,
      intervalMs: config.intervalMs,
      runOnce: (signal) => start(signal, false),
      run: (signal) => start(signal, true),
    };
  };

  const tiktokOne = make('trends:tiktok-one', collectTikTokOne);
  const news = make('trends:news', collectNews);
  // Retention: observations for 30 days (answers read 14), snapshots and runs for 30, news for 90.
  const retention = make('trends:retention', async () => {
    const now = Date.now();
    const day = 86_400_000;
    await repo.prune({
      observationsBefore: new Date(now - 30 * day),
      snapshotsBefore: new Date(now - 30 * day),
      runsBefore: new Date(now - 30 * day),
      newsBefore: new Date(now - 90 * day),
    });
    return [];
  });
  const tasks: Collector[] = config.enabled ? [retention] : [];
  if (config.enabled && config.tiktokOne) tasks.push(tiktokOne);
  if (config.enabled && config.news && config.feeds.length) tasks.push(news);
  return { tiktokOne, news, retention, tasks };
}

export type TrendsCollectors = ReturnType<typeof createTrendsCollectors>;

/** Default news feeds (docs/sources.md 'News feeds'); alternatives of one entry are tried in order. */
export const DEFAULT_NEWS_FEEDS = [
  'https://newsroom.tiktok.com/en-us/rss|https://newsroom.tiktok.com/rss|https://newsroom.tiktok.com/feed',
  'https://www.tiktok.com/business/en/blog/rss|https://www.tiktok.com/business/en/blog/rss.xml',
  'https://www.theverge.com/rss/tiktok/index.xml',
  'https://techcrunch.com/tag/tiktok/feed/',
  'https://www.socialmediatoday.com/feeds/news/',
];

/** Collector settings from configuration (TRENDS_* variables). */
export function collectorsConfigFrom(env: {
  NODE_ENV: string;
  TRENDS_COLLECTORS?: 'on' | 'off';
  TRENDS_TIKTOK_ONE: 'on' | 'off';
  TRENDS_NEWS: 'on' | 'off';
  TRENDS_COUNTRY: string;
  TRENDS_PERIOD: number;
  TRENDS_NEWS_FEEDS?: string;
  TRENDS_INTERVAL_MINUTES: number;
}): CollectorsConfig {
  return {
    enabled: (env.TRENDS_COLLECTORS ?? (env.NODE_ENV === 'test' ? 'off' : 'on')) === 'on',
    tiktokOne: env.TRENDS_TIKTOK_ONE === 'on',
    news: env.TRENDS_NEWS === 'on',
    country: env.TRENDS_COUNTRY,
    period: env.TRENDS_PERIOD,
    feeds: env.TRENDS_NEWS_FEEDS
      ? env.TRENDS_NEWS_FEEDS.split(',')
          .map((f) => f.trim())
          .filter(Boolean)
      : DEFAULT_NEWS_FEEDS,
    intervalMs: env.TRENDS_INTERVAL_MINUTES * 60_000,
  };
}

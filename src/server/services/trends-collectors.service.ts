// Background collectors for outside trend sources: TikTok One hashtags and news feeds. Each run is
// recorded in collector_runs (source, time, items, error) so a failing source is visible; a
// failing source never touches the others. Never run on a user's request.
import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { TrendsRepository } from '../db/repositories/trends.repository.js';
import type { TikTokOneAdapter } from '../adapters/trends/tiktok-one.adapter.js';
import type { FeedsAdapter, FeedItem } from '../adapters/trends/feeds.adapter.js';
import { categoriseNews } from './trends-categories.js';

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
  firstRunDelayMs: number | null;
  /** Told after each scheduled turn whether it ran or skipped (tests wait on it, never on time). */
  onTurn?: (name: string, ran: boolean) => void;
}

export interface RunResult {
  source: string;
  items: number;
  error: string | null;
}

export interface Collector {
  name: string;
  runOnce(signal?: AbortSignal): Promise<RunResult[]>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * Runs `run` first within a minute of start, then every interval ± 10 % jitter. With several app
 * nodes on one database, a node skips its turn when another started this source less than half an
 * interval ago (`due`), so the sources see about one request set per interval, not one per node.
 */
function schedule(name: string, run: (signal: AbortSignal) => Promise<unknown>, due: () => Promise<boolean>, cfg: CollectorsConfig, logger: Logger) {
  let timer: NodeJS.Timeout | null = null;
  let stopped = true;
  let inFlight: Promise<unknown> | null = null;
  let controller = new AbortController();
  const next = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(async () => {
      const signal = controller.signal;
      let ran = false;
      inFlight = due()
        .then((yes) => (yes && !signal.aborted ? ((ran = true), run(signal)) : undefined))
        .catch((err) => logger.error({ err, collector: name }, 'trend collector failed'))
        .finally(() => cfg.onTurn?.(name, ran));
      await inFlight;
      inFlight = null;
      next(cfg.intervalMs * (0.9 + Math.random() * 0.2));
    }, ms);
    timer.unref();
  };
  return {
    start() {
      if (!stopped) return;
      stopped = false;
      controller = new AbortController();
      next(cfg.firstRunDelayMs ?? 5_000 + Math.random() * 50_000);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      // A run in flight drops its outbound requests and records itself before the database closes.
      controller.abort();
      if (inFlight) await inFlight;
    },
  };
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
  const basis = canon ? `url:${canon}` : `title:${item.title.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()}`;
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

  async function recorded(source: string, work: () => Promise<number>): Promise<RunResult> {
    const id = await repo.startRun(source);
    let items = 0;
    let error: string | null = null;
    try {
      items = await work();
    } catch (err) {
      error = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
      logger.warn({ source, error }, 'trend source failed');
    }
    await repo.finishRun(id, items, error);
    return { source, items, error };
  }

  async function collectTikTokOne(signal?: AbortSignal): Promise<RunResult[]> {
    const result = await recorded(TIKTOK_ONE_SOURCE, async () => {
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

  async function collectNews(signal?: AbortSignal): Promise<RunResult[]> {
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
        await recorded(`news:${name}`.slice(0, 50), async () => {
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

  const make = (name: string, source: string, run: (signal?: AbortSignal) => Promise<RunResult[]>): Collector => {
    let running: Promise<RunResult[]> | null = null;
    const runOnce = (signal?: AbortSignal) => (running ??= run(signal).finally(() => (running = null)));
    const due = async () => {
      const last = await repo.lastRunStartedAt(source);
      return !last || Date.now() - last.getTime() >= config.intervalMs / 2;
    };
    return { name, runOnce, ...schedule(name, runOnce, due, config, logger) };
  };

  const tiktokOne = make('trends:tiktok-one', TIKTOK_ONE_SOURCE, collectTikTokOne);
  const news = make('trends:news', 'news:*', collectNews);
  // Retention: observations for 30 days (answers read 14), snapshots and runs for 30, news for 90.
  const retention = make('trends:retention', 'retention', async () => {
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
  const jobs: Collector[] = config.enabled ? [retention] : [];
  if (config.enabled && config.tiktokOne) jobs.push(tiktokOne);
  if (config.enabled && config.news && config.feeds.length) jobs.push(news);
  return { tiktokOne, news, retention, jobs };
}

export type TrendsCollectors = ReturnType<typeof createTrendsCollectors>;

/** Default news feeds (research/trends.md §2); alternatives of one entry are tried in order. */
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
  TRENDS_FIRST_RUN_DELAY_SECONDS?: number;
}): CollectorsConfig {
  return {
    enabled: (env.TRENDS_COLLECTORS ?? (env.NODE_ENV === 'test' ? 'off' : 'on')) === 'on',
    tiktokOne: env.TRENDS_TIKTOK_ONE === 'on',
    news: env.TRENDS_NEWS === 'on',
    country: env.TRENDS_COUNTRY,
    period: env.TRENDS_PERIOD,
    feeds: env.TRENDS_NEWS_FEEDS ? env.TRENDS_NEWS_FEEDS.split(',').map((f) => f.trim()).filter(Boolean) : DEFAULT_NEWS_FEEDS,
    intervalMs: env.TRENDS_INTERVAL_MINUTES * 60_000,
    firstRunDelayMs: env.TRENDS_FIRST_RUN_DELAY_SECONDS === undefined ? null : env.TRENDS_FIRST_RUN_DELAY_SECONDS * 1000,
  };
}

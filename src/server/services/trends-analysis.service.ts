// Builds the Trends analysis answer from stored data only (snapshots, observations, news), never
// by calling a source on a user's request. The answer is kept in memory for the client's 5-minute
// refetch (served stale while a newer one builds) and dropped when a collector stores new data.
import type { Logger } from 'pino';
import type { TrendsRepository, SnapshotRow } from '../db/repositories/trends.repository.js';
import type { TikTokOneHashtag } from '../adapters/trends/tiktok-one.adapter.js';
import type { TrendingHashtag, TrendsAnalysis, SectionSource } from '../../shared/contracts/trends.js';
import { TRENDS_REFETCH_MS } from '../../shared/constants.js';
import { trendsFromRollup, firstPartyInsights, DAY, HOUR, FIRST_PARTY_SOURCE } from './trends-aggregate.js';
import { categoryOf } from './trends-categories.js';
import { HASHTAGS_KIND, TIKTOK_ONE_SOURCE } from './trends-collectors.service.js';

const NEWS_LIMIT = 12;
const TIKTOK_ONE_TOP = 15;

interface HashtagSnapshot {
  country: string;
  period: number;
  items: TikTokOneHashtag[];
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Day-over-day change of the last two points of a curve scaled to its own maximum. */
export function curveGrowth(curve: Array<{ v: number }>): number | null {
  if (curve.length < 2) return null;
  const prev = curve[curve.length - 2].v;
  const last = curve[curve.length - 1].v;
  if (prev < 1) return null; // from (almost) nothing: a ratio would be meaningless
  return round1(((last - prev) / prev) * 100);
}

/** TikTok One hashtags with growth between snapshots about 24 h apart, else from the curve. */
export function tiktokOneHashtags(latest: HashtagSnapshot, previous: HashtagSnapshot | null): TrendingHashtag[] {
  const before = new Map((previous?.items ?? []).map((i) => [i.id, i]));
  const label = tiktokOneLabel(latest);
  return latest.items.slice(0, TIKTOK_ONE_TOP).map((item) => {
    const prev = before.get(item.id);
    let growth: number | null = null;
    let growthBasis: TrendingHashtag['growthBasis'] = null;
    if (prev?.views && item.views !== null) {
      growth = round1(((item.views - prev.views) / prev.views) * 100);
      growthBasis = 'snapshots_24h';
    } else {
      growth = curveGrowth(item.curve);
      growthBasis = growth === null ? null : 'curve_day_over_day';
    }
    return {
      hashtag: item.name,
      category: categoryOf([item.name], '', item.industryIds),
      views: item.views,
      growth,
      posts: item.posts,
      growthBasis,
      source: label,
    };
  });
}

export function tiktokOneLabel(s: { country: string; period: number }): string {
  return `TikTok One (${s.country}, last ${s.period} days)`;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const section = (source: string | null, at: Date | null): SectionSource => ({
  source: at ? source : null,
  collectedAt: iso(at),
});

export function createTrendsAnalysisService(deps: {
  repo: TrendsRepository;
  logger: Logger;
  now?: () => Date;
  ttlMs?: number;
}) {
  const now = deps.now ?? (() => new Date());
  const ttl = deps.ttlMs ?? TRENDS_REFETCH_MS;
  let cache: { at: number; value: TrendsAnalysis } | null = null;
  let building: Promise<TrendsAnalysis> | null = null;

  async function hashtagSnapshots(): Promise<{ latest: SnapshotRow; previous: SnapshotRow | null } | null> {
    const latest = await deps.repo.latestSnapshot(TIKTOK_ONE_SOURCE, HASHTAGS_KIND);
    if (!latest) return null;
    const c = latest.collectedAt.getTime();
    // Closest to 24 h old: the newest at least 24 h old (up to 48 h), else the oldest 8–24 h old.
    const previous =
      (await deps.repo.snapshotBetween(
        TIKTOK_ONE_SOURCE,
        HASHTAGS_KIND,
        new Date(c - 48 * HOUR),
        new Date(c - 24 * HOUR),
        'newest',
      )) ??
      (await deps.repo.snapshotBetween(
        TIKTOK_ONE_SOURCE,
        HASHTAGS_KIND,
        new Date(c - 24 * HOUR),
        new Date(c - 8 * HOUR),
        'oldest',
      )) ??
      null;
    return { latest, previous };
  }

  async function build(): Promise<TrendsAnalysis> {
    const at = now();
    const [rollup, snapshots, news, runs] = await Promise.all([
      deps.repo.firstPartyRollup(at),
      hashtagSnapshots(),
      deps.repo.latestNews(NEWS_LIMIT),
      deps.repo.latestRuns(),
    ]);
    const fp = trendsFromRollup(rollup, at);
    const insights: string[] = [];

    let oneTags: TrendingHashtag[] = [];
    let oneAt: Date | null = null;
    let oneLabel: string | null = null;
    if (snapshots) {
      const latest = snapshots.latest.data as HashtagSnapshot;
      oneTags = tiktokOneHashtags(latest, (snapshots.previous?.data as HashtagSnapshot | undefined) ?? null);
      oneAt = snapshots.latest.collectedAt;
      oneLabel = tiktokOneLabel(latest);
      const top = oneTags[0];
      if (top && top.posts !== null)
        insights.push(`#${top.hashtag} leads ${oneLabel} with ${top.posts.toLocaleString('en-US')} posts`);
      const riser = oneTags
        .filter(
          (h): h is typeof h & { growth: number } =>
            h.growthBasis === 'snapshots_24h' && h.growth !== null && h.growth > 0,
        )
        .sort((a, b) => b.growth - a.growth)[0];
      if (riser) insights.push(`#${riser.hashtag} views up ${riser.growth}% in 24 h on ${oneLabel}`);
    }
    insights.push(...firstPartyInsights(fp));

    const seen = new Set(oneTags.map((h) => h.hashtag.toLowerCase()));
    const hashtags = [...oneTags, ...fp.hashtags.filter((h) => !seen.has(h.hashtag.toLowerCase()))];

    const newsAt = news.reduce<Date | null>((m, n) => (!m || n.fetchedAt > m ? n.fetchedAt : m), null);
    const dayAgo = at.getTime() - DAY;
    const fresh = news.filter((n) => n.publishedAt.getTime() >= dayAgo).length;
    if (fresh > 0)
      insights.push(`${fresh} TikTok news ${fresh === 1 ? 'story' : 'stories'} published in the last 24 h`);

    const hashtagSources = [oneLabel, fp.hashtags.length ? `${FIRST_PARTY_SOURCE} (last 7 days)` : null]
      .filter(Boolean)
      .join(' + ');
    const hashtagAt = [oneAt, fp.hashtags.length ? fp.collectedAt : null].reduce<Date | null>(
      (m, d) => (d && (!m || d > m) ? d : m),
      null,
    );
    const fpLabel = `${FIRST_PARTY_SOURCE} (last 7 days)`;
    const stamps = [hashtagAt, fp.collectedAt, newsAt].filter((d): d is Date => !!d);
    const lastUpdated = stamps.length ? new Date(Math.max(...stamps.map((d) => d.getTime()))) : null;

    return {
      last_updated: iso(lastUpdated),
      insights,
      trending_hashtags: hashtags,
      trending_songs: fp.songs,
      trending_creators: fp.creators,
      trending_videos: fp.videos,
      tiktok_news: news.map((n) => ({
        title: n.title,
        summary: n.summary,
        category: n.category as TrendsAnalysis['tiktok_news'][number]['category'],
        source: n.source,
        timestamp: n.publishedAt.toISOString(),
        url: n.url,
      })),
      sources: {
        trending_hashtags: section(hashtagSources || null, hashtagAt),
        trending_songs: section(fpLabel, fp.songs.length ? fp.collectedAt : null),
        trending_creators: section(fpLabel, fp.creators.length ? fp.collectedAt : null),
        trending_videos: section(fpLabel, fp.videos.length ? fp.collectedAt : null),
        tiktok_news: section(news.length ? 'News feeds (RSS/Atom)' : null, news.length ? newsAt : null),
      },
      platform_analytics: {
        engagementRate: fp.analytics.engagementRate,
        engagementChange: fp.analytics.engagementChange,
        videos: fp.analytics.videos,
        periodStart: fp.analytics.periodStart.toISOString(),
        periodEnd: fp.analytics.periodEnd.toISOString(),
      },
      collectors: runs.map((r) => ({
        source: r.source,
        lastRunAt: iso(r.finishedAt ?? r.startedAt),
        items: r.items,
        error: r.error,
      })),
    };
  }

  function refresh(): Promise<TrendsAnalysis> {
    building ??= build()
      .then((value) => {
        cache = { at: Date.now(), value };
        return value;
      })
      .finally(() => (building = null));
    return building;
  }

  return {
    /** From memory; past the TTL the stored answer is served while a new one is built behind it. */
    async analysis(): Promise<TrendsAnalysis> {
      if (!cache) return refresh();
      if (Date.now() - cache.at >= ttl)
        refresh().catch((err) => deps.logger.error({ err }, 'trends analysis refresh failed'));
      return cache.value;
    },
    /** Called when a collector stored new data, so the next read sees it. */
    invalidate() {
      cache = null;
    },
  };
}

export type TrendsAnalysisService = ReturnType<typeof createTrendsAnalysisService>;

// First-party trend figures from the toolkit's own video observations. The database groups them
// (db/repositories/trends-rollup.ts); this turns the groups into the answer's rows.
// Windows: "this week" = the last 7 days; growth = views of the videos observed in the last
// 24 h against the daily mean of the previous 6 days (docs/decisions/0701-trend-growth.md).
import type { TrendingCreator, TrendingHashtag, TrendingSong, TrendVideoItem } from '../../shared/contracts/trends.js';
import type { FirstPartyRollup } from '../db/repositories/trends-rollup.js';
import { categoryOf } from './trends-categories.js';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const FIRST_PARTY_SOURCE = 'Videos processed by this toolkit';

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Growth in percent of the last 24 h against the daily mean of the 6 days before; null if no baseline. */
export function growthPercent(recent: number | null, previousSixDays: number | null): number | null {
  if (recent === null || previousSixDays === null || previousSixDays <= 0) return null;
  const dailyMean = previousSixDays / 6;
  return round1(((recent - dailyMean) / dailyMean) * 100);
}

export function videoTitle(v: { videoId: string; description: string | null }): string {
  const text = (v.description ?? '').trim();
  if (!text) return `TikTok video #${v.videoId}`;
  return text.length > 72 ? `${text.slice(0, 71)}…` : text;
}

export interface FirstPartyTrends {
  hashtags: TrendingHashtag[];
  songs: TrendingSong[];
  creators: TrendingCreator[];
  videos: TrendVideoItem[];
  /** Newest observation in the 7-day window, or null when there is none. */
  collectedAt: Date | null;
  analytics: {
    engagementRate: number | null;
    engagementChange: number | null;
    videos: number;
    periodStart: Date;
    periodEnd: Date;
  };
}

/** Likes over views in percent; null when no video had both counts. */
export function engagement(likes: number, plays: number): number | null {
  return plays > 0 ? (likes / plays) * 100 : null;
}

export function trendsFromRollup(r: FirstPartyRollup, now: Date): FirstPartyTrends {
  const hashtags: TrendingHashtag[] = r.hashtags.map((h) => {
    // A tag with no video in the last 24 h had 0 views there (not "unknown").
    const growth = growthPercent(h.recent ?? 0, h.before);
    return {
      hashtag: h.tag,
      category: categoryOf([h.tag]),
      views: h.views,
      growth,
      posts: h.posts,
      growthBasis: growth === null ? null : 'observations_24h_vs_6d',
      source: FIRST_PARTY_SOURCE,
    };
  });
  const songs: TrendingSong[] = r.songs.map((s) => ({
    title: s.title ?? 'Untitled sound',
    artist: s.artist,
    genre: null, // no source gives a genre (docs/sources.md 'Trend fields with no source')
    uses: s.uses,
    duration: s.duration,
  }));
  const creators: TrendingCreator[] = r.creators.map((c) => ({
    username: c.username,
    category: categoryOf((c.tags ?? '').split(' ').filter(Boolean), c.text ?? ''),
    verified: c.verified,
    followers: c.followers,
    recentViews: c.views,
  }));
  const videos: TrendVideoItem[] = r.videos.map((v) => ({
    title: videoTitle(v),
    creator: v.author,
    category: categoryOf(v.hashtags, v.description ?? ''),
    hashtags: v.hashtags,
    views: v.plays,
    likes: v.likes,
  }));
  const rate = engagement(r.week.likes, r.week.plays);
  const prevRate = engagement(r.previousWeek.likes, r.previousWeek.plays);
  return {
    hashtags,
    songs,
    creators,
    videos,
    collectedAt: r.week.newest ? new Date(r.week.newest) : null,
    analytics: {
      engagementRate: rate === null ? null : round1(rate),
      engagementChange: rate === null || prevRate === null ? null : round1(rate - prevRate),
      videos: r.week.videos,
      periodStart: new Date(now.getTime() - 7 * DAY),
      periodEnd: now,
    },
  };
}

/** Insight sentences made only from the figures above. */
export function firstPartyInsights(t: FirstPartyTrends): string[] {
  const out: string[] = [];
  const growing = t.hashtags
    .filter((h): h is typeof h & { growth: number } => h.growth !== null)
    .sort((a, b) => b.growth - a.growth);
  for (const h of growing.slice(0, 2)) {
    out.push(
      `#${h.hashtag} views ${h.growth >= 0 ? 'up' : 'down'} ${Math.abs(h.growth)}% in 24 h among videos processed here`,
    );
  }
  const song = t.songs[0];
  if (song && (song.uses ?? 0) > 1) {
    out.push(
      `Most used sound this week: "${song.title}"${song.artist ? ` by ${song.artist}` : ''} in ${song.uses} videos`,
    );
  }
  const creator = t.creators[0];
  if (creator && creator.recentViews !== null) {
    out.push(
      `@${creator.username} leads with ${creator.recentViews.toLocaleString('en-US')} views across videos processed this week`,
    );
  }
  if (t.analytics.engagementRate !== null) {
    out.push(
      `Average engagement (likes per view) this week: ${t.analytics.engagementRate}% over ${t.analytics.videos} videos`,
    );
  }
  return out;
}

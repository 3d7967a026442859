// First-party trend figures from the toolkit's own video observations (pure functions).
// Windows: "this week" = the last 7 days; growth = views of the videos observed in the last
// 24 h against the daily mean of the previous 6 days (docs/decisions/0701-trend-growth.md).
// Each video counts once per window, with its latest observation in that window.
import type {
  TrendingCreator,
  TrendingHashtag,
  TrendingSong,
  TrendVideoItem,
} from '../../shared/contracts/trends.js';
import { categoryOf } from './trends-categories.js';

export interface ObservationLike {
  videoId: string;
  description: string | null;
  author: string | null;
  authorVerified: boolean | null;
  authorFollowers: number | null;
  hashtags: string[];
  musicId: string | null;
  musicTitle: string | null;
  musicAuthor: string | null;
  musicDuration: number | null;
  plays: number | null;
  likes: number | null;
  observedAt: Date;
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const FIRST_PARTY_SOURCE = 'Videos processed by this toolkit';
const TOP = 10;

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Latest observation per video with observedAt in [from, to). */
export function latestPerVideo<T extends ObservationLike>(rows: T[], from: number, to: number): T[] {
  const byVideo = new Map<string, T>();
  for (const r of rows) {
    const t = r.observedAt.getTime();
    if (t < from || t >= to) continue;
    const prev = byVideo.get(r.videoId);
    if (!prev || prev.observedAt.getTime() <= t) byVideo.set(r.videoId, r);
  }
  return [...byVideo.values()];
}

/** Σ plays, or null when no video in the set has a play count. */
function sumPlays(rows: ObservationLike[]): number | null {
  let total: number | null = null;
  for (const r of rows) if (r.plays !== null) total = (total ?? 0) + r.plays;
  return total;
}

/** Growth in percent of the last 24 h against the daily mean of the 6 days before; null if no baseline. */
export function growthPercent(recent: number | null, previousSixDays: number | null): number | null {
  if (recent === null || previousSixDays === null || previousSixDays <= 0) return null;
  const dailyMean = previousSixDays / 6;
  return round1(((recent - dailyMean) / dailyMean) * 100);
}

function groupBy<T>(rows: T[], keys: (r: T) => string[]): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) for (const k of keys(r)) (m.get(k) ?? m.set(k, []).get(k)!).push(r);
  return m;
}

export function videoTitle(o: ObservationLike): string {
  const text = (o.description ?? '').trim();
  if (!text) return `TikTok video #${o.videoId}`;
  return text.length > 72 ? `${text.slice(0, 71)}…` : text;
}

export interface FirstPartyTrends {
  hashtags: TrendingHashtag[];
  songs: TrendingSong[];
  creators: TrendingCreator[];
  videos: TrendVideoItem[];
  /** Newest observation in the 7-day window, or null when there is none. */
  collectedAt: Date | null;
  analytics: { engagementRate: number | null; engagementChange: number | null; videos: number; periodStart: Date; periodEnd: Date };
}

export function aggregateObservations(rows: ObservationLike[], now: Date): FirstPartyTrends {
  const end = now.getTime() + 1; // include observations made "now"
  const week = latestPerVideo(rows, end - 7 * DAY, end);
  const recent = latestPerVideo(rows, end - DAY, end);
  const before = latestPerVideo(rows, end - 7 * DAY, end - DAY);
  const previousWeek = latestPerVideo(rows, end - 14 * DAY, end - 7 * DAY);

  const weekByTag = groupBy(week, (r) => r.hashtags);
  const recentByTag = groupBy(recent, (r) => r.hashtags);
  const beforeByTag = groupBy(before, (r) => r.hashtags);
  const hashtags: TrendingHashtag[] = [...weekByTag]
    .map(([tag, vids]) => ({
      hashtag: tag,
      category: categoryOf([tag]),
      views: sumPlays(vids),
      growth: growthPercent(sumPlays(recentByTag.get(tag) ?? []) ?? 0, sumPlays(beforeByTag.get(tag) ?? [])),
      posts: vids.length,
      growthBasis: 'observations_24h_vs_6d' as const,
      source: FIRST_PARTY_SOURCE,
    }))
    .map((h) => ({ ...h, growthBasis: h.growth === null ? null : h.growthBasis }))
    .sort((a, b) => (b.views ?? -1) - (a.views ?? -1) || b.posts - a.posts || a.hashtag.localeCompare(b.hashtag))
    .slice(0, TOP);

  const songKey = (r: ObservationLike) => (r.musicId ? [r.musicId] : r.musicTitle ? [`${r.musicTitle}\u0000${r.musicAuthor ?? ''}`] : []);
  const songs: TrendingSong[] = [...groupBy(week, songKey)]
    .map(([, vids]) => {
      const latest = vids.reduce((a, b) => (a.observedAt >= b.observedAt ? a : b));
      return {
        song: {
          title: latest.musicTitle ?? 'Untitled sound',
          artist: latest.musicAuthor,
          genre: null, // no source gives a genre (research/trends.md §1e)
          uses: vids.length,
          duration: latest.musicDuration,
        },
        views: sumPlays(vids) ?? -1,
      };
    })
    .sort((a, b) => (b.song.uses ?? 0) - (a.song.uses ?? 0) || b.views - a.views || a.song.title.localeCompare(b.song.title))
    .slice(0, TOP)
    .map((s) => s.song);

  const creators: TrendingCreator[] = [...groupBy(week, (r) => (r.author ? [r.author] : []))]
    .map(([username, vids]) => {
      const latest = vids.reduce((a, b) => (a.observedAt >= b.observedAt ? a : b));
      return {
        username,
        category: categoryOf(vids.flatMap((v) => v.hashtags), vids.map((v) => v.description ?? '').join(' ')),
        verified: latest.authorVerified,
        followers: latest.authorFollowers,
        recentViews: sumPlays(vids),
      };
    })
    .sort((a, b) => (b.recentViews ?? -1) - (a.recentViews ?? -1) || (b.followers ?? -1) - (a.followers ?? -1) || a.username.localeCompare(b.username))
    .slice(0, TOP);

  const videos: TrendVideoItem[] = [...week]
    .sort((a, b) => (b.plays ?? -1) - (a.plays ?? -1) || a.videoId.localeCompare(b.videoId))
    .slice(0, TOP)
    .map((v) => ({
      title: videoTitle(v),
      creator: v.author,
      category: categoryOf(v.hashtags, v.description ?? ''),
      hashtags: v.hashtags,
      views: v.plays,
      likes: v.likes,
    }));

  const rate = engagement(week);
  const prevRate = engagement(previousWeek);
  const newest = week.reduce<Date | null>((m, r) => (!m || r.observedAt > m ? r.observedAt : m), null);
  return {
    hashtags,
    songs,
    creators,
    videos,
    collectedAt: newest,
    analytics: {
      engagementRate: rate === null ? null : round1(rate),
      engagementChange: rate === null || prevRate === null ? null : round1(rate - prevRate),
      videos: week.length,
      periodStart: new Date(end - 1 - 7 * DAY),
      periodEnd: now,
    },
  };
}

/** Likes over views (percent) of the videos that have both counts; null when none do. */
export function engagement(rows: ObservationLike[]): number | null {
  let likes = 0;
  let plays = 0;
  for (const r of rows) {
    if (r.plays === null || r.likes === null || r.plays <= 0) continue;
    likes += r.likes;
    plays += r.plays;
  }
  return plays > 0 ? (likes / plays) * 100 : null;
}

/** Insight sentences made only from the figures above. */
export function firstPartyInsights(t: FirstPartyTrends): string[] {
  const out: string[] = [];
  const growing = t.hashtags.filter((h) => h.growth !== null).sort((a, b) => b.growth! - a.growth!);
  for (const h of growing.slice(0, 2)) {
    out.push(`#${h.hashtag} views ${h.growth! >= 0 ? 'up' : 'down'} ${Math.abs(h.growth!)}% in 24 h among videos processed here`);
  }
  const song = t.songs[0];
  if (song && (song.uses ?? 0) > 1) {
    out.push(`Most used sound this week: "${song.title}"${song.artist ? ` by ${song.artist}` : ''} in ${song.uses} videos`);
  }
  const creator = t.creators[0];
  if (creator && creator.recentViews !== null) {
    out.push(`@${creator.username} leads with ${creator.recentViews.toLocaleString('en-US')} views across videos processed this week`);
  }
  if (t.analytics.engagementRate !== null) {
    out.push(`Average engagement (likes per view) this week: ${t.analytics.engagementRate}% over ${t.analytics.videos} videos`);
  }
  return out;
}

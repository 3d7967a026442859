// Read-only view of the hashtags the product has seen: on videos fetched through it
// (video_observations.hashtags, written by the trends feature) and on the curated trending list
// (trending_videos.tags). Feeds the hashtag generator's "trending" card with real counts only.
import { sql } from 'drizzle-orm';
import type { Db } from '../client.js';

export interface ObservedTag {
  /** Lower-case, without '#'. */
  tag: string;
  /** Distinct videos carrying the tag in the window. */
  videos: number;
  lastSeen: Date;
}

export interface ObservedSnapshot {
  tags: ObservedTag[];
  /** Distinct videos looked at in the window (observed plus curated). */
  videos: number;
  windowDays: number;
  takenAt: Date;
}

type Row = Record<string, unknown>;
const rowsOf = (result: unknown): Row[] => (result as { rows?: Row[] }).rows ?? [];

export function createHashtagObservationsRepository(db: Db) {
  return {
    async snapshot(opts: { windowDays: number; limit: number; now?: Date }): Promise<ObservedSnapshot> {
      const now = opts.now ?? new Date();
      const since = new Date(now.getTime() - opts.windowDays * 86_400_000).toISOString();
      // unnest() in FROM works the same on PostgreSQL and PGlite; epoch seconds avoid driver date quirks.
      const tags = await db.execute(sql`
        select tag, count(distinct src)::int as videos, extract(epoch from max(seen))::float8 as last_seen
        from (
          select lower(regexp_replace(trim(h), '^#+', '')) as tag, 'v:' || o.video_id as src, o.observed_at as seen
          from video_observations o, unnest(o.hashtags) as h
          where o.observed_at >= ${since}::timestamptz
          union all
          select lower(regexp_replace(trim(t), '^#+', '')) as tag, 't:' || v.id as src, v.updated_at as seen
          from trending_videos v, unnest(v.tags) as t
          where v.status = 'active' and v.updated_at >= ${since}::timestamptz
        ) x
        where tag <> ''
        group by tag
        order by videos desc, last_seen desc
        limit ${opts.limit}`);
      const totals = await db.execute(sql`
        select
          (select count(distinct video_id) from video_observations where observed_at >= ${since}::timestamptz)::int
          + (select count(*) from trending_videos where status = 'active' and updated_at >= ${since}::timestamptz)::int as videos`);
      return {
        tags: rowsOf(tags).map((r) => ({
          tag: String(r.tag),
          videos: Number(r.videos),
          lastSeen: new Date(Number(r.last_seen) * 1000),
        })),
        videos: Number(rowsOf(totals)[0]?.videos ?? 0),
        windowDays: opts.windowDays,
        takenAt: now,
      };
    },
  };
}
export type HashtagObservationsRepository = ReturnType<typeof createHashtagObservationsRepository>;

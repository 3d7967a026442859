// First-party trend figures computed in SQL, so only the top rows leave the database (reading
// every observation row out of PGlite costs far more than grouping them: see docs/benchmarks.md).
// Windows: r = last 24 h, b = the 6 days before, p = the 7 days before those. Each video counts
// once per window, with its latest observation there; "this week" = its latest in r or b.
import { sql } from 'drizzle-orm';
import type { Db } from '../client.js';

export interface FirstPartyRollup {
  hashtags: Array<{ tag: string; posts: number; views: number | null; recent: number | null; before: number | null }>;
  songs: Array<{
    title: string | null;
    artist: string | null;
    duration: number | null;
    uses: number;
    views: number | null;
  }>;
  creators: Array<{
    username: string;
    verified: boolean | null;
    followers: number | null;
    views: number | null;
    tags: string | null;
    text: string | null;
  }>;
  videos: Array<{
    videoId: string;
    description: string | null;
    author: string | null;
    hashtags: string[];
    plays: number | null;
    likes: number | null;
  }>;
  week: { videos: number; likes: number; plays: number; newest: string | null };
  previousWeek: { likes: number; plays: number };
}

const TOP = 10;

export async function firstPartyRollup(db: Db, now: Date): Promise<FirstPartyRollup> {
  const t = now.getTime();
  const dayAgo = new Date(t - 86_400_000);
  const weekAgo = new Date(t - 7 * 86_400_000);
  const twoWeeksAgo = new Date(t - 14 * 86_400_000);
  const result = await db.execute(sql`
    with base as (
      select id, video_id, description, author, author_verified, author_followers, hashtags, music_id, music_title,
             music_author, music_duration, plays, likes, observed_at,
             case when observed_at >= ${dayAgo.toISOString()}::timestamptz then 'r'
                  when observed_at >= ${weekAgo.toISOString()}::timestamptz then 'b' else 'p' end as win
      from video_observations
      where observed_at >= ${twoWeeksAgo.toISOString()}::timestamptz and observed_at <= ${now.toISOString()}::timestamptz
    ),
    latest as (select distinct on (video_id, win) * from base order by video_id, win, observed_at desc, id desc),
    wk as (select distinct on (video_id) * from latest where win <> 'p' order by video_id, observed_at desc, id desc),
    tag_week as (
      select tg as tag, count(*)::int as posts, sum(wk.plays)::float8 as views
      from wk cross join lateral unnest(wk.hashtags) as u(tg) group by tg
    ),
    tag_win as (
      select tg as tag, (sum(l.plays) filter (where l.win = 'r'))::float8 as recent,
        (sum(l.plays) filter (where l.win = 'b'))::float8 as before
      from latest l cross join lateral unnest(l.hashtags) as u(tg) where l.win <> 'p' group by tg
    ),
    top_tags as (
      select w.tag, w.posts, w.views, x.recent, x.before from tag_week w left join tag_win x on x.tag = w.tag
      order by w.views desc nulls last, w.posts desc, w.tag collate "C" limit ${TOP}
    ),
    songs as (
      select * from (
        select (array_agg(music_title order by observed_at desc))[1] as title,
               (array_agg(music_author order by observed_at desc))[1] as artist,
               (array_agg(music_duration order by observed_at desc))[1] as duration,
               count(*)::int as uses, sum(plays)::float8 as views
        from wk where music_id is not null or music_title is not null
        group by coalesce(music_id, music_title || ' | ' || coalesce(music_author, ''))
      ) s order by uses desc, views desc nulls last, title collate "C" limit ${TOP}
    ),
    creators as (
      select * from (
        select author as username,
               (array_agg(author_verified order by observed_at desc))[1] as verified,
               ((array_agg(author_followers order by observed_at desc))[1])::float8 as followers,
               sum(plays)::float8 as views,
               left(string_agg(array_to_string(hashtags, ' '), ' '), 5000) as tags,
               left(string_agg(coalesce(description, ''), ' '), 5000) as text
        from wk where author is not null group by author
      ) c order by views desc nulls last, followers desc nulls last, username collate "C" limit ${TOP}
    ),
    videos as (
      select video_id as "videoId", description, author, hashtags, plays::float8 as plays, likes::float8 as likes
      from wk order by plays desc nulls last, video_id collate "C" limit ${TOP}
    )
    select json_build_object(
      'hashtags', coalesce((select json_agg(t order by t.views desc nulls last, t.posts desc, t.tag collate "C")
        from top_tags t), '[]'::json),
      'songs', coalesce((select json_agg(s order by s.uses desc, s.views desc nulls last, s.title collate "C") from songs s), '[]'::json),
      'creators', coalesce((select json_agg(c order by c.views desc nulls last, c.followers desc nulls last,
        c.username collate "C") from creators c), '[]'::json),
      'videos', coalesce((select json_agg(v order by v.plays desc nulls last, v."videoId" collate "C") from videos v), '[]'::json),
      'week', (select json_build_object(
          'videos', count(*),
          'likes', coalesce(sum(likes) filter (where plays > 0 and likes is not null), 0),
          'plays', coalesce(sum(plays) filter (where plays > 0 and likes is not null), 0),
          'newest', max(observed_at)) from wk),
      'previousWeek', (select json_build_object(
          'likes', coalesce(sum(likes) filter (where plays > 0 and likes is not null), 0),
          'plays', coalesce(sum(plays) filter (where plays > 0 and likes is not null), 0)) from latest where win = 'p')
    ) as rollup`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ rollup: unknown }>;
  const raw = rows[0].rollup;
  const value = (typeof raw === 'string' ? JSON.parse(raw) : raw) as FirstPartyRollup;
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    ...value,
    week: {
      videos: Number(value.week.videos),
      likes: Number(value.week.likes),
      plays: Number(value.week.plays),
      newest: value.week.newest,
    },
    previousWeek: { likes: Number(value.previousWeek.likes), plays: Number(value.previousWeek.plays) },
    hashtags: value.hashtags.map((h) => ({ ...h, views: n(h.views), recent: n(h.recent), before: n(h.before) })),
  };
}

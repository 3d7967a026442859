import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { aggregateObservations, firstPartyInsights, growthPercent, type ObservationLike } from '../../src/server/services/trends-aggregate.js';
import { observationFromItemStruct } from '../../src/server/adapters/trends/item-struct.js';
import { categoryOf, categoryOfTag, categoriseNews } from '../../src/server/services/trends-categories.js';
import { curveGrowth, tiktokOneHashtags } from '../../src/server/services/trends-analysis.service.js';

const FIX = path.resolve(import.meta.dirname, '../../../shared/fixtures/tiktok');
const NOW = new Date('2026-11-20T12:00:00Z');
const H = 3_600_000;

function obs(videoId: string, hoursAgo: number, o: Partial<ObservationLike> = {}): ObservationLike {
  return {
    videoId,
    description: null,
    author: 'maker',
    authorVerified: null,
    authorFollowers: null,
    hashtags: [],
    musicId: null,
    musicTitle: null,
    musicAuthor: null,
    musicDuration: null,
    plays: null,
    likes: null,
    observedAt: new Date(NOW.getTime() - hoursAgo * H),
    ...o,
  };
}

describe('first-party observations from real itemStructs', () => {
  it('maps the 2026 page: author, followers, tags from textExtra, music, counts', () => {
    const scope = JSON.parse(fs.readFileSync(path.join(FIX, 'real_2026-09-28_video_7504044860782021930.scope_tail.json'), 'utf8'));
    const o = observationFromItemStruct(scope['webapp.video-detail'].itemInfo.itemStruct)!;
    expect(o).toMatchObject({
      videoId: '7504044860782021930',
      author: 'tjrobertson52',
      authorNickname: 'TJ Robertson',
      authorVerified: false,
      authorFollowers: 20700,
      hashtags: ['ai', 'marketingtips', 'smallbusiness'],
      musicId: '7504045022044588843',
      musicTitle: 'original sound - TJ Robertson',
      musicAuthor: 'TJ Robertson',
      musicDuration: 251,
      plays: 71400,
      likes: 1819,
    });
  });

  it('maps the 2021 Next.js page (verified author, non-Latin tag)', () => {
    const props = JSON.parse(fs.readFileSync(path.join(FIX, 'real_2021-09-11_nextjs_pageProps_6999955804216364289.json'), 'utf8'));
    const o = observationFromItemStruct(props.itemInfo.itemStruct)!;
    expect(o).toMatchObject({ author: 'i_am_doshik1', authorVerified: true, authorFollowers: 14400000, hashtags: ['рекомендации'], plays: 44200000, likes: 3400000, musicDuration: 9 });
  });

  it('falls back to #words of the description and refuses a struct without a numeric id', () => {
    expect(observationFromItemStruct({ id: '123', desc: 'hello #Dance and #dance #food_tok' })!.hashtags).toEqual(['dance', 'food_tok']);
    expect(observationFromItemStruct({ id: 'abc' })).toBeNull();
    expect(observationFromItemStruct(null)).toBeNull();
  });
});

describe('first-party aggregation over days', () => {
  // #cats: last 24 h videos v1 (1000 plays) + v2 (500); previous 6 days v3 (600), v4 (300) -> daily mean 150.
  // growth = (1500 - 150) / 150 * 100 = 900 %.
  const rows = [
    obs('v1', 2, { hashtags: ['cats'], plays: 900, likes: 90 }),
    obs('v1', 1, { hashtags: ['cats'], plays: 1000, likes: 100, author: 'kitty', authorFollowers: 5000, musicId: 'm1', musicTitle: 'Meow', musicAuthor: 'DJ Cat', musicDuration: 30 }),
    obs('v2', 20, { hashtags: ['cats', 'funny'], plays: 500, likes: 50, author: 'kitty', musicId: 'm1', musicTitle: 'Meow', musicAuthor: 'DJ Cat', musicDuration: 30 }),
    obs('v3', 48, { hashtags: ['cats'], plays: 600, likes: 6, author: 'other' }),
    obs('v4', 130, { hashtags: ['cats', 'recipe'], plays: 300, likes: 3, author: 'chef' }),
    obs('v5', 24 * 10, { hashtags: ['cats'], plays: 1000, likes: 200, author: 'old' }), // previous week only
  ];
  const t = aggregateObservations(rows, NOW);

  it('computes views, posts and growth by hand', () => {
    const cats = t.hashtags.find((h) => h.hashtag === 'cats')!;
    expect(cats.views).toBe(1000 + 500 + 600 + 300);
    expect(cats.posts).toBe(4);
    expect(cats.growth).toBe(900);
    expect(cats.growthBasis).toBe('observations_24h_vs_6d');
    expect(cats.category).toBe('Pets');
    // #funny only in the last 24 h: no baseline, so no growth rather than an invented one.
    expect(t.hashtags.find((h) => h.hashtag === 'funny')).toMatchObject({ growth: null, growthBasis: null, category: 'Comedy' });
    // #recipe only before: recent 0 against 300/6 = 50 a day -> -100 %.
    expect(t.hashtags.find((h) => h.hashtag === 'recipe')!.growth).toBe(-100);
    expect(growthPercent(120, 600)).toBe(20);
    expect(growthPercent(5, 0)).toBeNull();
  });

  it('ranks songs by uses, creators by recent views, videos by views; unknown fields stay null', () => {
    expect(t.songs[0]).toEqual({ title: 'Meow', artist: 'DJ Cat', genre: null, uses: 2, duration: 30 });
    expect(t.creators[0]).toMatchObject({ username: 'kitty', recentViews: 1500, followers: 5000, verified: null, category: 'Pets' });
    expect(t.creators.map((c) => c.username)).not.toContain('old');
    expect(t.videos[0]).toMatchObject({ title: 'TikTok video #v1', creator: 'kitty', views: 1000, likes: 100, hashtags: ['cats'] });
    expect(t.videos).toHaveLength(4);
  });

  it('computes the analytics card: likes over views this week against the previous week', () => {
    // this week: likes 100+50+6+3 = 159 over plays 2400 = 6.625 %; previous: 200/1000 = 20 % -> -13.4 pts
    expect(t.analytics.engagementRate).toBe(6.6);
    expect(t.analytics.engagementChange).toBe(-13.4);
    expect(t.analytics.videos).toBe(4);
    expect(new Date(t.analytics.periodEnd).getTime() - new Date(t.analytics.periodStart).getTime()).toBe(7 * 24 * H);
  });

  it('writes insights only from the figures', () => {
    const insights = firstPartyInsights(t);
    expect(insights).toContain('#cats views up 900% in 24 h among videos processed here');
    expect(insights).toContain('#recipe views down 100% in 24 h among videos processed here');
    expect(insights).toContain('Most used sound this week: "Meow" by DJ Cat in 2 videos');
  });

  it('gives nothing from no data', () => {
    const empty = aggregateObservations([], NOW);
    expect(empty.hashtags).toEqual([]);
    expect(empty.analytics.engagementRate).toBeNull();
    expect(firstPartyInsights(empty)).toEqual([]);
  });
});

describe('TikTok One growth', () => {
  const item = (id: string, views: number | null, curve: number[]) => ({
    id,
    name: `tag${id}`,
    industryIds: ['27000000000'],
    views,
    posts: 10,
    rank: 1,
    curve: curve.map((v, i) => ({ t: i, v })),
  });
  it('uses snapshots about 24 h apart when both have views, else the curve, else null', () => {
    const latest = { country: 'US', period: 7, items: [item('1', 3400, [10, 50]), item('2', null, [20, 25]), item('3', null, [0.5, 100])] };
    const previous = { country: 'US', period: 7, items: [item('1', 1000, [5, 10])] };
    const tags = tiktokOneHashtags(latest, previous);
    expect(tags[0]).toMatchObject({ growth: 240, growthBasis: 'snapshots_24h', category: 'Food', source: 'TikTok One (US, last 7 days)' });
    expect(tags[1]).toMatchObject({ growth: 25, growthBasis: 'curve_day_over_day' });
    expect(tags[2]).toMatchObject({ growth: null, growthBasis: null });
    expect(curveGrowth([{ v: 76.1 }, { v: 74.1 }])).toBe(-2.6);
  });
});

describe('categories', () => {
  it('uses the lexicon, then industries, then General', () => {
    expect(categoryOfTag('dogsoftiktok')).toBe('Pets');
    expect(categoryOfTag('unicornfrappuccino')).toBe('Food');
    expect(categoryOf(['outfitcheck', 'ootd'])).toBe('Fashion');
    expect(categoryOf(['xyzzy'], '', ['19000000000'])).toBe('Pets');
    expect(categoryOf(['xyzzy'])).toBe('General');
    expect(categoriseNews('New Spotify integration lets you save songs', null)).toBe('music');
    expect(categoriseNews('Tools to help creators earn', null)).toBe('creator');
    expect(categoriseNews('TikTok Shop pushes brands toward live ads', null)).toBe('business');
    expect(categoriseNews('The silent review challenge goes viral', null)).toBe('viral');
    expect(categoriseNews('An update on safety settings', null)).toBe('platform');
  });
});

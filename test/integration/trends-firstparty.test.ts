// First-party aggregation in SQL over observations spread across days, on both databases, with
// every figure checked by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, openTestDatabase } from '../helpers/test-db.js';
import type { Database } from '../../src/server/db/client.js';
import { createTrendsRepository, type NewObservation } from '../../src/server/db/repositories/trends.repository.js';
import { firstPartyInsights, trendsFromRollup } from '../../src/server/services/trends-aggregate.js';

const NOW = new Date('2026-11-20T12:00:00Z');
const H = 3_600_000;

function obs(videoId: string, hoursAgo: number, o: Partial<NewObservation> = {}): NewObservation {
  return { videoId, author: 'maker', hashtags: [], observedAt: new Date(NOW.getTime() - hoursAgo * H), ...o };
}

describe.each(DB_KINDS)('first-party aggregation over days (%s)', (kind) => {
  let database: Database;
  let t: ReturnType<typeof trendsFromRollup>;
  const meow = { musicId: 'm1', musicTitle: 'Meow', musicAuthor: 'DJ Cat', musicDuration: 30 };
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const repo = createTrendsRepository(database.db);
    // #cats: last 24 h videos v1 (latest 1000 plays) + v2 (500); the 6 days before v3 (600) + v4 (300)
    // -> daily mean 150 -> growth (1500 - 150) / 150 = +900 %.
    await repo.recordObservations([
      obs('v1', 2, { hashtags: ['cats'], plays: 900, likes: 90, author: 'kitty' }),
      obs('v1', 1, { hashtags: ['cats'], plays: 1000, likes: 100, author: 'kitty', authorFollowers: 5000, ...meow }),
      obs('v2', 20, { hashtags: ['cats', 'funny'], plays: 500, likes: 50, author: 'kitty', ...meow }),
      obs('v3', 48, { hashtags: ['cats'], plays: 600, likes: 6, author: 'other' }),
      obs('v4', 130, { hashtags: ['cats', 'recipe'], plays: 300, likes: 3, author: 'chef' }),
      obs('v5', 24 * 10, { hashtags: ['cats'], plays: 1000, likes: 200, author: 'old' }), // previous week only
      obs('v6', 24 * 20, { hashtags: ['ancient'], plays: 9, likes: 9, author: 'gone' }), // outside both weeks
      obs('v7', -1, { hashtags: ['future'], plays: 9, author: 'later' }), // after "now": not counted
    ]);
    t = trendsFromRollup(await repo.firstPartyRollup(NOW), NOW);
  });
  afterAll(() => database?.close());

  it('computes views, posts and growth per hashtag', () => {
    const cats = t.hashtags.find((h) => h.hashtag === 'cats')!;
    expect(cats).toMatchObject({
      views: 1000 + 500 + 600 + 300,
      posts: 4,
      growth: 900,
      growthBasis: 'observations_24h_vs_6d',
      category: 'Pets',
    });
    expect(t.hashtags[0].hashtag).toBe('cats');
    // #funny only in the last 24 h: no baseline, so no growth rather than an invented one.
    expect(t.hashtags.find((h) => h.hashtag === 'funny')).toMatchObject({
      growth: null,
      growthBasis: null,
      category: 'Comedy',
      posts: 1,
      views: 500,
    });
    // #recipe only before: 0 in the last 24 h against 300 / 6 = 50 a day -> -100 %.
    expect(t.hashtags.find((h) => h.hashtag === 'recipe')!.growth).toBe(-100);
    expect(t.hashtags.map((h) => h.hashtag)).not.toEqual(expect.arrayContaining(['ancient']));
    expect(t.hashtags.map((h) => h.hashtag)).not.toContain('future');
  });

  it('ranks songs by uses, creators by views, videos by views; unknown fields stay null', () => {
    expect(t.songs).toEqual([{ title: 'Meow', artist: 'DJ Cat', genre: null, uses: 2, duration: 30 }]);
    expect(t.creators[0]).toEqual({
      username: 'kitty',
      recentViews: 1500,
      followers: 5000,
      verified: null,
      category: 'Pets',
    });
    expect(t.creators.map((c) => c.username)).toEqual(['kitty', 'other', 'chef']);
    expect(t.videos.map((v) => v.views)).toEqual([1000, 600, 500, 300]);
    expect(t.videos[0]).toEqual({
      title: 'TikTok video #v1',
      creator: 'kitty',
      category: 'Pets',
      hashtags: ['cats'],
      views: 1000,
      likes: 100,
    });
    expect(t.collectedAt!.toISOString()).toBe(new Date(NOW.getTime() - H).toISOString());
  });

  it('computes the analytics card: likes over views this week against the previous week', () => {
    // this week: (100 + 50 + 6 + 3) / 2400 = 6.625 %; previous week: 200 / 1000 = 20 % -> -13.4 points
    expect(t.analytics).toMatchObject({ engagementRate: 6.6, engagementChange: -13.4, videos: 4 });
    expect(t.analytics.periodEnd.getTime() - t.analytics.periodStart.getTime()).toBe(7 * 24 * H);
  });

  it('writes insights only from the figures', () => {
    const insights = firstPartyInsights(t);
    expect(insights).toContain('#cats views up 900% in 24 h among videos processed here');
    expect(insights).toContain('Most used sound this week: "Meow" by DJ Cat in 2 videos');
    expect(insights).toContain('@kitty leads with 1,500 views across videos processed this week');
    expect(insights).toContain('Average engagement (likes per view) this week: 6.6% over 4 videos');
  });

  it('gives nothing from no data', async () => {
    const empty = trendsFromRollup(
      await createTrendsRepository(database.db).firstPartyRollup(new Date('2020-01-01T00:00:00Z')),
      NOW,
    );
    expect(empty).toMatchObject({ hashtags: [], songs: [], creators: [], videos: [], collectedAt: null });
    expect(empty.analytics).toMatchObject({ engagementRate: null, engagementChange: null, videos: 0 });
    expect(firstPartyInsights(empty)).toEqual([]);
  });

  it('prunes what no answer reads, keeping the newest snapshot of each source', async () => {
    const repo = createTrendsRepository(database.db);
    const old = new Date(NOW.getTime() - 40 * 24 * H);
    await repo.recordObservations([obs('gone1', 40 * 24, { hashtags: ['x'] })]);
    await repo.addSnapshot('tiktok_one', 'hashtags', { items: [] }, old);
    await repo.addSnapshot('other', 'hashtags', { items: [] }, old);
    await repo.addSnapshot('other', 'hashtags', { items: [] }, new Date(old.getTime() + 1000));
    const cutoff = new Date(NOW.getTime() - 30 * 24 * H);
    await repo.prune({ observationsBefore: cutoff, snapshotsBefore: cutoff, runsBefore: cutoff, newsBefore: cutoff });
    expect((await repo.observationsSince(new Date(0))).map((o) => o.videoId)).not.toContain('gone1');
    expect((await repo.observationsSince(new Date(0))).length).toBe(8);
    expect((await repo.latestSnapshot('tiktok_one', 'hashtags'))!.collectedAt).toEqual(old); // newest kept
    expect((await repo.snapshotBetween('other', 'hashtags', new Date(0), NOW, 'oldest'))!.collectedAt).toEqual(
      new Date(old.getTime() + 1000),
    );
  });
});

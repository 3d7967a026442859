import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { growthPercent, videoTitle } from '../../src/server/services/trends-aggregate.js';
import { observationFromItemStruct } from '../../src/server/platforms/tiktok/observation-mapper.js';
import { categoryOf, categoryOfTag, categoriseNews } from '../../src/server/services/trends-categories.js';
import { curveGrowth, tiktokOneHashtags } from '../../src/server/services/trends-analysis.service.js';

const FIX = path.resolve(import.meta.dirname, '../fixtures/tiktok');
describe('first-party observations from real itemStructs', () => {
  it('maps the 2026 page: author, followers, tags from textExtra, music, counts', () => {
    const scope = JSON.parse(
      fs.readFileSync(path.join(FIX, 'real_2026-09-28_video_7504044860782021930.scope_tail.json'), 'utf8'),
    );
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
    const props = JSON.parse(
      fs.readFileSync(path.join(FIX, 'real_2021-09-11_nextjs_pageProps_6999955804216364289.json'), 'utf8'),
    );
    const o = observationFromItemStruct(props.itemInfo.itemStruct)!;
    expect(o).toMatchObject({
      author: 'i_am_doshik1',
      authorVerified: true,
      authorFollowers: 14400000,
      hashtags: ['рекомендации'],
      plays: 44200000,
      likes: 3400000,
      musicDuration: 9,
    });
  });

  it('falls back to #words of the description and refuses a struct without a numeric id', () => {
    expect(observationFromItemStruct({ id: '123', desc: 'hello #Dance and #dance #food_tok' })!.hashtags).toEqual([
      'dance',
      'food_tok',
    ]);
    expect(observationFromItemStruct({ id: 'abc' })).toBeNull();
    expect(observationFromItemStruct(null)).toBeNull();
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
    const latest = {
      country: 'US',
      period: 7,
      items: [item('1', 3400, [10, 50]), item('2', null, [20, 25]), item('3', null, [0.5, 100])],
    };
    const previous = { country: 'US', period: 7, items: [item('1', 1000, [5, 10])] };
    const tags = tiktokOneHashtags(latest, previous);
    expect(tags[0]).toMatchObject({
      growth: 240,
      growthBasis: 'snapshots_24h',
      category: 'Food',
      source: 'TikTok One (US, last 7 days)',
    });
    expect(tags[1]).toMatchObject({ growth: 25, growthBasis: 'curve_day_over_day' });
    expect(tags[2]).toMatchObject({ growth: null, growthBasis: null });
    expect(curveGrowth([{ v: 76.1 }, { v: 74.1 }])).toBe(-2.6);
  });
});

describe('growth and titles', () => {
  it('compares the last 24 h with the daily mean of the 6 days before', () => {
    expect(growthPercent(120, 600)).toBe(20); // 600 / 6 = 100 a day -> +20 %
    expect(growthPercent(0, 300)).toBe(-100);
    expect(growthPercent(5, 0)).toBeNull(); // no baseline: no figure rather than an invented one
    expect(growthPercent(5, null)).toBeNull();
    expect(videoTitle({ videoId: '1', description: '' })).toBe('TikTok video #1');
    expect(videoTitle({ videoId: '1', description: 'x'.repeat(100) })).toHaveLength(72);
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

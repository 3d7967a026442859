// The built-in hashtag engine on real-looking creator titles: relevance, format and limits.
import { describe, expect, it } from 'vitest';
import { createWinkAdapter } from '../../src/server/adapters/nlp/wink.adapter.js';
import { HASHTAG_LEXICON } from '../../src/server/lexicon/hashtags/index.js';
import { createBuiltinHashtagEngine } from '../../src/server/services/hashtag-engine.builtin.js';
import type { ObservedSnapshot } from '../../src/server/db/repositories/hashtag-observations.repository.js';
import { cleanHashtags, stripMarkup, toHashtag, truncateAtWord } from '../../src/server/services/hashtag-text.js';

const engine = createBuiltinHashtagEngine({ nlp: createWinkAdapter(), lexicon: HASHTAG_LEXICON });
const VALID = /^#[\p{L}\p{M}\p{N}_]+$/u;

const TITLES: Array<[niche: string, title: string]> = [
  ['cooking', 'Easy 15 minute garlic butter pasta recipe for busy weeknights'],
  ['cooking', 'Crispy air fryer chicken wings in 20 minutes'],
  ['fitness', '20 min full body HIIT workout at home, no equipment'],
  ['fitness', 'Leg day glute workout for beginners at the gym'],
  ['gaming', 'I finally beat the Elden Ring final boss with no hits'],
  ['gaming', 'Minecraft survival base build tutorial'],
  ['beauty', 'My everyday glowy makeup routine for oily skin'],
  ['beauty', 'Drugstore skincare routine for acne prone skin'],
  ['travel', '3 days in Lisbon on a budget: itinerary and hidden gems'],
  ['travel', 'Backpacking Thailand itinerary for two weeks'],
  ['finance', 'How I paid off my credit card debt in 18 months'],
  ['finance', 'Investing for beginners: index funds explained'],
];

function words(title: string): string[] {
  return (title.toLowerCase().match(/\p{L}{3,}/gu) ?? []).map((w) => w.replace(/s$/, ''));
}

function expectWellFormed(list: string[]) {
  for (const tag of list) expect(tag).toMatch(VALID);
  expect(new Set(list).size).toBe(list.length);
}

describe('built-in hashtag engine', () => {
  it.each(TITLES)('finds the %s niche and title words for "%s"', (niche, title) => {
    const a = engine.analyze({ videoTitle: title });
    expect(a.niche.id).toBe(niche);
    const r = engine.generate({ videoTitle: title }, null, a);
    const titleWords = words(title);
    // The top three niche tags are built from the title's own words.
    for (const tag of r.niche.slice(0, 3)) {
      expect(
        titleWords.some((w) => tag.includes(w)),
        `${tag} from ${title}`,
      ).toBe(true);
    }
    expectWellFormed(r.niche);
    expectWellFormed(r.trending);
    expectWellFormed(r.mixed);
    expect(r.mixed).toHaveLength(5);
    expect(r.niche.length).toBeGreaterThanOrEqual(5);
    expect(r.niche.length).toBeLessThanOrEqual(10);
    expect(r.tips.some((t) => /5 hashtags per post/.test(t))).toBe(true);
    // Nothing measured: the trending card says so instead of inventing numbers.
    expect(r.tips.some((t) => /not measured trends/.test(t))).toBe(true);
  });

  it('is deterministic', () => {
    const input = { videoTitle: 'Easy 15 minute garlic butter pasta recipe', niche: 'cooking' };
    expect(engine.generate(input, null)).toEqual(engine.generate(input, null));
  });

  it('ranks observed hashtags that fit the video by videos and recency, with the real counts in the tip', () => {
    const now = new Date('2026-11-20T12:00:00Z');
    const day = 86_400_000;
    const observed: ObservedSnapshot = {
      windowDays: 30,
      videos: 42,
      takenAt: now,
      tags: [
        { tag: 'starbucks', videos: 30, lastSeen: now }, // unrelated to a pasta video
        { tag: 'pastatok', videos: 4, lastSeen: new Date(now.getTime() - 1 * day) },
        { tag: 'foodtok', videos: 9, lastSeen: new Date(now.getTime() - 20 * day) },
        { tag: 'dinnerideas', videos: 3, lastSeen: now },
      ],
    };
    const r = engine.generate({ videoTitle: 'Creamy pasta recipe for dinner' }, observed);
    expect(r.trending.slice(0, 3)).toEqual(['#pastatok', '#dinnerideas', '#foodtok']);
    expect(r.trending).not.toContain('#starbucks');
    const tip = r.tips.find((t) => t.startsWith('Trending:'))!;
    expect(tip).toContain('3 of these tags were seen on videos fetched through this product in the last 30 days');
    expect(tip).toContain('42 videos looked at; #pastatok on 4');
    expect(r.mixed[0]).toBe('#pastatok');
  });

  it("keeps the creator's own hashtags and niche, and the language of the title", () => {
    const r = engine.generate({ videoTitle: 'Receta fácil de paella valenciana #paella', niche: 'Spanish food' }, null);
    expect(r.niche[0]).toBe('#paella');
    expect(r.niche).toContain('#paellavalenciana');
    expect(r.niche).toContain('#spanishfood');
    expect(r.niche.some((t) => t.includes('fácil'))).toBe(true);
    expect(r.niche).not.toContain('#de');
  });

  it('answers an emoji-only title with general tags and a tip asking for words', () => {
    const r = engine.generate({ videoTitle: '🔥🔥🔥' }, null);
    expect(r.niche.length).toBeGreaterThan(0);
    expect(r.mixed).toHaveLength(5);
    expect(r.tips.some((t) => /could not find words/.test(t))).toBe(true);
  });

  it('ignores markup and script bodies', () => {
    const r = engine.generate({ videoTitle: '<script>alert("x")</script><b>My dog</b> learns a new trick' }, null);
    const all = [...r.niche, ...r.trending, ...r.mixed].join(' ');
    expect(all).not.toMatch(/script|alert|<|>/);
    expect(r.niche).toContain('#dog');
  });
});

describe('hashtag text rules', () => {
  it('accepts letters of any script, digits and underscores only', () => {
    expect(toHashtag('#Garlic Butter!')).toBe('#garlicbutter');
    expect(toHashtag('##café_au_lait')).toBe('#café_au_lait');
    expect(toHashtag('料理')).toBe('#料理');
    expect(toHashtag('#2024')).toBeNull();
    expect(toHashtag('#')).toBeNull();
    expect(toHashtag('x'.repeat(41))).toBeNull();
    expect(cleanHashtags(['#Ab', 'ab', '#b c', 7, '#b_c', '#dd'], 3)).toEqual(['#ab', '#bc', '#b_c']);
  });

  it('strips markup and truncates at a word boundary', () => {
    expect(stripMarkup('Hi <img src=x onerror=alert(1)>there<script>evil()</script>!')).toBe('Hi there !');
    const cut = truncateAtWord('one two three four five six', 15);
    expect(cut.length).toBeLessThanOrEqual(15);
    expect(cut).toBe('one two three…');
  });
});

describe('tag quality', () => {
  it('does not offer filler words such as "min" or "easy" as tags on their own', () => {
    const r = engine.generate({ videoTitle: '20 min easy full body HIIT workout at home' }, null);
    expect(r.niche).not.toContain('#min');
    expect(r.niche).not.toContain('#easy');
    expect(r.niche).toContain('#hiitworkout');
  });
});

// Issue 47: each target's texts stay within its rules (REPOST_TARGET_LIMITS) for hostile input:
// 10,000 characters, 200 hashtags, emoji, right-to-left text, long credits; edits are held to them too.
import { describe, expect, it } from 'vitest';
import { REPOST_TARGET_LIMITS, REPOST_TARGETS } from '../../src/shared/platform-limits';
import {
  composeRepostText,
  creditLine,
  fitEditedText,
  fitsRules,
  graphemes,
  hashtagsIn,
  lengthFor,
  titleFor,
} from '../../src/shared/repost-texts';

const emoji = '👩🏽‍🚀🇫🇷❤️‍🔥';
const rtl = 'مرحبا بالعالم هذا نص طويل من اليمين إلى اليسار ';
const tags = Array.from({ length: 200 }, (_, i) => `#tag${i}`);
const hostile = {
  long: 'word '.repeat(2000),
  tags: Array.from({ length: 200 }, (_, i) => `#tag${i}`).join(' '),
  emoji: `${emoji} `.repeat(2500),
  rtl: rtl.repeat(250),
  noSpaces: 'x'.repeat(10_000),
};

function expectWithin(target: (typeof REPOST_TARGETS)[number], text: string) {
  const rules = REPOST_TARGET_LIMITS[target].caption;
  expect(lengthFor(rules, text)).toBeLessThanOrEqual(rules.characterLimit);
  expect(fitsRules(rules, text)).toBe(true);
  expect(hashtagsIn(text).length).toBeLessThanOrEqual(rules.hashtagLimit);
  // No half of a surrogate pair anywhere.
  expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  if (!rules.blankLines) expect(text).not.toMatch(/\n\n/);
  const title = titleFor(target, text);
  if (rules.titleLimit) {
    expect(title?.length ?? 0).toBeLessThanOrEqual(rules.titleLimit);
    expect(title).not.toMatch(/\n/);
  } else expect(title).toBeNull();
}

describe.each(REPOST_TARGETS)('texts for %s stay within its rules', (target) => {
  const credit = creditLine(`${emoji}${rtl}`.repeat(10), 'https://example.test/@someone/video/123');

  for (const [name, body] of Object.entries(hostile)) {
    it(`composed from ${name}`, () => {
      const text = composeRepostText(target, { hook: body.slice(0, 3000), body, hashtags: tags, credit });
      expectWithin(target, text);
      expect(text).toContain('https://example.test/@someone/video/123');
    });
    it(`edited to ${name} with 200 hashtags`, () => {
      expectWithin(target, fitEditedText(target, `${body}\n\n\n\n${tags.join(' ')}`));
    });
  }

  it('places hashtags at the end, up to the count, and keeps a short text whole', () => {
    const text = composeRepostText(target, {
      hook: 'Sunset at the pier.',
      body: 'Filmed last night.',
      hashtags: tags,
    });
    const { hashtagLimit } = REPOST_TARGET_LIMITS[target].caption;
    expect(text.startsWith('Sunset at the pier.')).toBe(true);
    expect(text).toContain('Filmed last night.');
    expect(text.endsWith(tags.slice(0, hashtagLimit).join(' '))).toBe(true);
  });
});

describe('counting', () => {
  it('counts an emoji with its modifiers as one grapheme', () => {
    expect(graphemes(emoji)).toHaveLength(3);
    const rules = REPOST_TARGET_LIMITS.bluesky.caption;
    expect(lengthFor(rules, emoji)).toBe(3);
    expect(lengthFor(REPOST_TARGET_LIMITS.tiktok.caption, emoji)).toBe(emoji.length);
  });
  it('holds the byte ceiling as well as the grapheme count', () => {
    const rules = REPOST_TARGET_LIMITS.bluesky.caption;
    // 300 family emoji are 300 graphemes but far over 3,000 bytes.
    const family = '👨‍👩‍👧‍👦'.repeat(300);
    expect(fitsRules(rules, family)).toBe(false);
    expect(fitsRules(rules, fitEditedText('bluesky', family))).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import {
  isUnsure,
  mergeWithNext,
  nudgeLine,
  setWordText,
  splitLine,
} from '../../src/client/components/caption-studio/line-edits.js';
import { fitsSubtitle } from '../../src/shared/subtitle-lines.js';
import type { CaptionLine } from '../../src/shared/contracts/caption-studio.js';

const w = (text: string, start: number, end: number, confidence?: number) => ({
  text,
  start,
  end,
  ...(confidence === undefined ? {} : { confidence }),
});
const LINES: CaptionLine[] = [
  { id: 'a', words: [w('Hello', 0, 0.5), w('wrld', 0.5, 1, 0.3), w('today', 1, 1.5)] },
  { id: 'b', words: [w('second', 2, 2.5)] },
];

describe('caption line edits', () => {
  it('fixes a word and clears its unsure mark, leaving the input untouched', () => {
    expect(isUnsure(LINES[0].words[1])).toBe(true);
    const next = setWordText(LINES, 0, 1, 'world');
    expect(next[0].words[1]).toEqual({ text: 'world', start: 0.5, end: 1 });
    expect(isUnsure(next[0].words[1])).toBe(false);
    expect(LINES[0].words[1].text).toBe('wrld');
  });

  it('typing spaces splits a word in time; clearing it removes it, and the last word removes the line', () => {
    const split = setWordText(LINES, 0, 1, 'new  world');
    expect(split[0].words.map((x) => [x.text, x.start, x.end])).toEqual([
      ['Hello', 0, 0.5],
      ['new', 0.5, 0.75],
      ['world', 0.75, 1],
      ['today', 1, 1.5],
    ]);
    expect(setWordText(LINES, 0, 1, '  ')[0].words.map((x) => x.text)).toEqual(['Hello', 'today']);
    expect(setWordText(LINES, 1, 0, '').map((l) => l.id)).toEqual(['a']);
  });

  it('bounds a pasted 10,000-character word and 100 words typed into one field', () => {
    expect(Array.from(setWordText(LINES, 1, 0, 'x'.repeat(10_000))[0 + 1].words[0].text)).toHaveLength(64);
    const many = setWordText(LINES, 1, 0, Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '));
    // Re-flowed as subtitles: every word kept in order, each line two rows of at most 42 characters.
    expect(many.slice(1).flatMap((l) => l.words.map((x) => x.text))).toEqual(
      Array.from({ length: 100 }, (_, i) => `w${i}`),
    );
    expect(many.slice(1).every((l) => fitsSubtitle(l.words))).toBe(true);
    expect(many.slice(1).map((l) => l.words.length)).toEqual([23, 20, 20, 20, 17]);
    expect(many[1].id).toBe('b');
    expect(new Set(many.map((l) => l.id)).size).toBe(many.length);
  });

  it('a word that makes its line longer than two rows re-flows the line; one that fits leaves it alone', () => {
    const long: CaptionLine[] = [
      {
        id: 'a',
        words: 'this line is nearly as long as two rows of captions can be'
          .split(' ')
          .map((t, i) => w(t, i / 4, (i + 1) / 4)),
      },
    ];
    expect(setWordText(long, 0, 0, 'This')[0]).toMatchObject({ id: 'a' });
    expect(setWordText(long, 0, 0, 'This')).toHaveLength(1);
    const grown = setWordText(long, 0, 12, 'be, and then some more words were said by someone');
    expect(grown.length).toBeGreaterThan(1);
    expect(grown.every((l) => fitsSubtitle(l.words))).toBe(true);
    expect(grown[0].id).toBe('a');
  });

  it('splits a line before a word and merges it back', () => {
    const split = splitLine(LINES, 0, 2);
    expect(split.map((l) => l.words.map((x) => x.text))).toEqual([['Hello', 'wrld'], ['today'], ['second']]);
    expect(split[1].id).not.toBe('a');
    expect(splitLine(LINES, 0, 0)).toBe(LINES);
    const merged = mergeWithNext(split, 0);
    expect(merged.map((l) => l.words.length)).toEqual([3, 1]);
    expect(mergeWithNext(LINES, 1)).toBe(LINES);
    // Two lines that together would not fit two rows stay apart.
    const a = {
      id: 'x',
      words: ['forty', 'characters', 'of', 'text', 'in', 'this'].map((t, i) => w(t, i / 4, (i + 1) / 4)),
    };
    const b = {
      id: 'y',
      words: ['and', 'fifty', 'more', 'characters', 'in', 'a', 'second', 'line'].map((t, i) =>
        w(t, 2 + i / 4, 2 + (i + 1) / 4),
      ),
    };
    expect(mergeWithNext([a, b], 0)).toHaveLength(1);
    const c = {
      id: 'z',
      words: ['yet', 'another', 'line', 'that', 'does', 'not', 'fit'].map((t, i) => w(t, 5 + i / 4, 5 + (i + 1) / 4)),
    };
    const ab = mergeWithNext([a, b, c], 0);
    expect(mergeWithNext(ab, 0)).toBe(ab);
  });

  it('nudges a line by a tenth of a second, never before zero', () => {
    expect(nudgeLine(LINES, 1, 0.1)[1].words[0]).toMatchObject({ start: 2.1, end: 2.6 });
    expect(nudgeLine(LINES, 0, -0.1)[0].words[0]).toMatchObject({ start: 0, end: 0.5 });
  });
});

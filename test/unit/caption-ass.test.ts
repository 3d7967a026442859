import { describe, expect, it } from 'vitest';
import {
  assColor,
  assTime,
  buildAss,
  captionChunks,
  DEFAULT_CAPTION_STYLE,
  escapeAssText,
  TIKTOK_SAFE_AREA,
} from '../../src/shared/caption-ass.js';
import type { CaptionLine, CaptionStyle } from '../../src/shared/contracts/caption-studio.js';

const w = (text: string, start: number, end: number, confidence?: number) => ({ text, start, end, confidence });
const LINES: CaptionLine[] = [
  { id: 'l1', words: [w('Hello', 0, 0.4), w('brave', 0.4, 0.8), w('new', 0.8, 1.1), w('world', 1.1, 1.6)] },
  { id: 'l2', words: [w('second', 3, 3.5), w('line', 3.5, 4)] },
];
const style = (s: Partial<CaptionStyle> = {}): CaptionStyle => ({ ...DEFAULT_CAPTION_STYLE, ...s });
const project = (s: Partial<CaptionStyle> = {}, lines = LINES, width = 1080, height = 1920) => ({
  width,
  height,
  lines,
  style: style(s),
});
const events = (ass: string) => ass.split('\n').filter((l) => l.startsWith('Dialogue:'));
const eventText = (line: string) => line.split(',').slice(9).join(',');
const styleFields = (ass: string) => {
  const format =
    ass
      .split('\n')
      .find((l) => l.startsWith('Format: Name'))
      ?.slice(8)
      .split(', ') ?? [];
  const values =
    ass
      .split('\n')
      .find((l) => l.startsWith('Style: '))
      ?.slice(7)
      .split(',') ?? [];
  return Object.fromEntries(format.map((f, i) => [f, values[i]]));
};

describe('ASS basics', () => {
  it('converts colours to &HAABBGGRR and times to H:MM:SS.cc', () => {
    expect(assColor('#ff8000')).toBe('&H000080FF');
    expect(assColor('#102030', 0x80)).toBe('&H80302010');
    expect(assTime(3723.456)).toBe('1:02:03.46');
    expect(assTime(-1)).toBe('0:00:00.00');
  });

  it('uses the frame size as PlayRes and scales font size and safe-area margins to it', () => {
    const full = styleFields(buildAss(project({ size: 80 })));
    expect(full.Fontsize).toBe('80');
    expect(full.MarginV).toBe(String(TIKTOK_SAFE_AREA.bottom));
    expect(full.MarginR).toBe(String(TIKTOK_SAFE_AREA.right));
    const small = buildAss(project({ size: 80 }, LINES, 540, 960));
    expect(small).toContain('PlayResX: 540\nPlayResY: 960');
    const f = styleFields(small);
    expect(f.Fontsize).toBe('40');
    expect(f.MarginV).toBe(String(TIKTOK_SAFE_AREA.bottom / 2));
    expect(f.MarginR).toBe(String(TIKTOK_SAFE_AREA.right / 2));
    // Clear of the right-hand button column: the right margin is wider than the left one.
    expect(Number(f.MarginR)).toBeGreaterThan(Number(f.MarginL));
  });

  it('places captions at the bottom, middle or top of the safe area', () => {
    expect(styleFields(buildAss(project({ position: 'bottom' }))).Alignment).toBe('2');
    expect(styleFields(buildAss(project({ position: 'middle' }))).Alignment).toBe('5');
    const top = styleFields(buildAss(project({ position: 'top' })));
    expect(top.Alignment).toBe('8');
    expect(top.MarginV).toBe(String(TIKTOK_SAFE_AREA.top));
  });

  it('names the chosen font and colours in the style', () => {
    const f = styleFields(buildAss(project({ font: 'Bebas Neue', textColor: '#00ff00', outlineColor: '#0000ff' })));
    expect(f.Fontname).toBe('Bebas Neue');
    expect(f.PrimaryColour).toBe('&H0000FF00');
    expect(f.OutlineColour).toBe('&H00FF0000');
  });
});

describe('presets', () => {
  it('clean: one event per group of words-per-line words', () => {
    const ev = events(buildAss(project({ preset: 'clean', wordsPerLine: 2 })));
    expect(ev.map(eventText)).toEqual(['Hello brave', 'new world', 'second line']);
    expect(ev[0]).toMatch(/^Dialogue: 0,0:00:00.00,0:00:00.80,Caption/);
    // A short gap is bridged (no flicker), a long one is not.
    expect(ev[1]).toContain(',0:00:00.80,0:00:01.60,');
  });

  it('karaoke: one event per word state, the active word in the highlight colour', () => {
    const ev = events(buildAss(project({ preset: 'karaoke', wordsPerLine: 4, highlightColor: '#ffd400' })));
    expect(ev).toHaveLength(6);
    expect(eventText(ev[1])).toBe('Hello {\\1c&H00D4FF&}brave{\\r} new world');
    expect(ev[1]).toContain(',0:00:00.40,0:00:00.80,');
    expect(eventText(ev[5])).toBe('second {\\1c&H00D4FF&}line{\\r}');
  });

  it('pop: at most three words at a time, with a scale-in', () => {
    const ev = events(buildAss(project({ preset: 'pop', wordsPerLine: 12 })));
    expect(ev.map((e) => eventText(e).replace(/^\{[^}]*\}/, ''))).toEqual(['Hello brave new', 'world', 'second line']);
    expect(eventText(ev[0])).toMatch(/^\{\\fscx80\\fscy80\\t\(0,100,\\fscx100\\fscy100\)\}/);
  });

  it('boxed: an opaque box in the box colour (BorderStyle 3)', () => {
    const f = styleFields(buildAss(project({ preset: 'boxed', boxColor: '#112233' })));
    expect(f.BorderStyle).toBe('3');
    expect(f.OutlineColour).toBe('&H00332211');
  });

  it('bold: heavy, upper case, thicker outline than clean', () => {
    const ass = buildAss(project({ preset: 'bold' }));
    expect(styleFields(ass).Bold).toBe('-1');
    expect(Number(styleFields(ass).Outline)).toBeGreaterThan(Number(styleFields(buildAss(project())).Outline));
    expect(events(ass).map(eventText)[0]).toBe('HELLO BRAVE NEW WORLD');
  });
});

describe('hostile caption text is plain text', () => {
  it('escapes override blocks, drawing commands and line-break escapes', () => {
    expect(escapeAssText('{\\p1}m 0 0 l 100 0{\\p0}')).toBe('\\{\\\u2060p1\\}m 0 0 l 100 0\\{\\\u2060p0\\}');
    expect(escapeAssText('a\\Nb\\hc')).toBe('a\\\u2060Nb\\\u2060hc');
    const text = eventText(
      events(buildAss(project({}, [{ id: 'x', words: [w('{\\p1}m', 0, 1), w('a\\N', 1, 2)] }])))[0],
    );
    // No override block opens and no backslash is directly followed by a letter libass would obey.
    expect(text.replace(/\\[{}]/g, '')).not.toMatch(/[{}]/);
    expect(text).not.toMatch(/\\[A-Za-z]/);
  });

  it('keeps right-to-left, CJK and emoji text as it is', () => {
    for (const text of ['مرحبا', 'שלום\u200f', '你好世界', 'こんにちは', '🔥🎉'])
      expect(escapeAssText(text)).toBe(text);
  });

  it('turns control characters (line breaks included) into spaces', () => {
    expect(escapeAssText('a\nb\r\u0000c\u2028d')).toBe('a b  c d');
    const ass = buildAss({ ...project(), title: 'evil\n[Events]\nDialogue: x' });
    expect(ass.split('\n').filter((l) => l.startsWith('[Events]'))).toHaveLength(1);
  });

  it('bounds a 10,000-character word and 10,000 words', () => {
    expect(Array.from(escapeAssText('x'.repeat(10_000)))).toHaveLength(64);
    const many = Array.from({ length: 10_000 }, (_, i) => w(`w${i}`, i * 0.1, i * 0.1 + 0.1));
    const lines = Array.from({ length: 250 }, (_, i) => ({ id: `l${i}`, words: many.slice(i * 40, i * 40 + 40) }));
    const chunks = captionChunks(lines, style({ wordsPerLine: 12 }));
    expect(chunks.reduce((n, c) => n + c.words.length, 0)).toBe(10_000);
    expect(Math.max(...chunks.map((c) => c.words.length))).toBe(12);
    const huge = [{ id: 'h', words: Array.from({ length: 500 }, () => w('y'.repeat(10_000), 0, 1)) }];
    const ass = buildAss(project({ wordsPerLine: 12 }, huge));
    expect(ass.length).toBeLessThan(10_000);
  });

  it('copes with words out of order and zero-length words', () => {
    const ev = events(
      buildAss(
        project({}, [
          { id: 'z', words: [w('late', 5, 5)] },
          { id: 'y', words: [w('early', 1, 2)] },
        ]),
      ),
    );
    expect(ev.map(eventText)).toEqual(['early', 'late']);
    expect(ev[1]).toContain(',0:00:05.00,0:00:05.05,');
  });
});

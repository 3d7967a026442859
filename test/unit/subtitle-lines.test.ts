import { describe, expect, it } from 'vitest';
import { projectToSrt, projectToWebVtt } from '../../src/shared/caption-exports.js';
import { parseWebVtt } from '../../src/shared/captions.js';
import { displayEnd, fitsSubtitle, flowWords, rowBreak, SUBTITLE_RULES } from '../../src/shared/subtitle-lines.js';
import { linesFromTranscript } from '../../src/server/services/caption-studio/caption-projects.service.js';

const w = (text: string, start: number, end: number) => ({ text, start, end });
/** Words read at an even pace from `from`, `per` seconds each. */
const spoken = (text: string, from = 0, per = 0.3) =>
  text.split(' ').map((t, i) => w(t, from + i * per, from + (i + 1) * per));
const texts = (runs: { text: string }[][]) => runs.map((r) => r.map((x) => x.text).join(' '));

// The case the issue reports: a 10-second clip recognised as one segment of 26 words.
const TEN_SECONDS = spoken(
  'so today I want to show you how I make fresh pasta at home. it takes about twenty minutes and you only need flour eggs and salt',
  0.2,
  0.3,
);

describe('subtitle-shaped lines', () => {
  it('a 26-word segment becomes lines of two rows of at most 42 characters, 1 to 7 seconds, broken after the sentence', () => {
    const runs = flowWords(TEN_SECONDS);
    expect(runs.flat()).toEqual(TEN_SECONDS);
    expect(texts(runs)[0]).toBe('so today I want to show you how I make fresh pasta at home.');
    for (const run of runs) {
      const span = run[run.length - 1].end - run[0].start;
      expect(span).toBeLessThanOrEqual(SUBTITLE_RULES.maxSeconds);
      const at = rowBreak(run.map((x) => x.text));
      expect(at).not.toBeNull();
      const rows = at ? [run.slice(0, at), run.slice(at)] : [run];
      for (const row of rows) expect(row.map((x) => x.text).join(' ').length).toBeLessThanOrEqual(42);
    }
  });

  it('breaks at a pause of 0.3 s or more, and not at a shorter one', () => {
    const words = [w('one', 0, 0.4), w('two', 0.6, 1), w('three', 1.3, 1.7), w('four', 1.9, 2.2)];
    expect(texts(flowWords(words))).toEqual(['one two', 'three four']);
  });

  it('seven seconds at most, even for slow speech with few characters', () => {
    const slow = spoken('a b c d e f g h i j k l', 0, 1);
    const runs = flowWords(slow);
    expect(runs.every((r) => r[r.length - 1].end - r[0].start <= 7)).toBe(true);
    expect(runs.length).toBe(2);
  });

  it('prefers to cut an over-long run after a comma rather than mid-clause', () => {
    const words = spoken(
      'we went down to the market early in the morning, bought some tomatoes and basil and then cooked',
    );
    expect(texts(flowWords(words))[0]).toBe('we went down to the market early in the morning,');
  });

  it('rows are balanced; a word longer than a row gets a row of its own; three rows do not fit', () => {
    expect(rowBreak(['short'])).toBe(0);
    const at = rowBreak('the quick brown fox jumps over the lazy dog and runs far away'.split(' '));
    expect(at).toBe(6); // 30 characters each
    expect(rowBreak(['x'.repeat(60), 'tail'])).toBe(1);
    expect(rowBreak(Array.from({ length: 30 }, () => 'word'))).toBeNull();
    expect(fitsSubtitle([w('x'.repeat(64), 0, 9)])).toBe(true);
  });

  it('a cue stays at least a second on screen when the next one leaves room, never over it', () => {
    expect(displayEnd(1, 1.3, undefined)).toBe(2);
    expect(displayEnd(1, 1.3, 1.6)).toBe(1.6);
    expect(displayEnd(1, 1.3, 1.2)).toBe(1.3);
    expect(displayEnd(1, 3, 10)).toBe(3);
  });

  it('the transcript becomes editor lines by the same rules (segments still break lines)', () => {
    const lines = linesFromTranscript({
      segments: [
        { id: 1, start: 0.2, end: 10, text: '', words: TEN_SECONDS },
        { id: 2, start: 10, end: 11, text: 'no word times' },
      ],
    });
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.every((l) => fitsSubtitle(l.words))).toBe(true);
    expect(lines[lines.length - 1].words.map((x) => x.text)).toEqual(['no', 'word', 'times']);
  });

  it('SRT and VTT exports cut a line that breaks the rules and write two rows', () => {
    const srt = projectToSrt([{ id: 'one', words: TEN_SECONDS }]);
    const cues = srt.trim().split('\n\n');
    expect(cues.map((c) => c.split('\n').slice(2))).toEqual([
      ['so today I want to show you', 'how I make fresh pasta at home.'],
      ['it takes about twenty minutes and', 'you only need flour eggs and salt'],
    ]);
    for (const cue of cues) {
      const [, , ...rows] = cue.split('\n');
      expect(rows.length).toBeGreaterThanOrEqual(1);
      expect(rows.length).toBeLessThanOrEqual(2);
      for (const row of rows) expect(row.length).toBeLessThanOrEqual(42);
    }
    const vtt = projectToWebVtt([{ id: 'one', words: TEN_SECONDS }]);
    const read = parseWebVtt(vtt)
      .map((c) => c.text.replace(/\s+/g, ' '))
      .join(' ');
    expect(read).toBe(TEN_SECONDS.map((x) => x.text).join(' '));
    expect(vtt).toMatch(/\n[^\n<]+(<\d\d:\d\d:\d\d\.\d{3}>[^\n<]+)*\n[^\n]/);
  });
});

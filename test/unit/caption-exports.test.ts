import { describe, expect, it } from 'vitest';
import { projectToSrt, projectToText, projectToWebVtt } from '../../src/shared/caption-exports.js';
import { parseWebVtt } from '../../src/shared/captions.js';
import type { CaptionLine } from '../../src/shared/contracts/caption-studio.js';

const w = (text: string, start: number, end: number) => ({ text, start, end });
const LINES: CaptionLine[] = [
  { id: 'b', words: [w('second', 3, 3.5), w('line', 3.5, 4.25)] },
  { id: 'a', words: [w('Hello', 0.5, 1), w('<b>bold</b>', 1, 1.5), w('A-->B', 1.5, 2)] },
];

describe('caption project exports', () => {
  it('SRT: one numbered cue per line, in time order; an arrow in the text cannot pass for a timing line', () => {
    expect(projectToSrt(LINES)).toBe(
      '1\n00:00:00,500 --> 00:00:02,000\nHello <b>bold</b> A->B\n\n2\n00:00:03,000 --> 00:00:04,250\nsecond line\n',
    );
  });

  it('WebVTT: word timestamps inside each cue, markup escaped', () => {
    const vtt = projectToWebVtt(LINES);
    expect(vtt).toBe(
      'WEBVTT\n\n00:00:00.500 --> 00:00:02.000\nHello <00:00:01.000>&lt;b&gt;bold&lt;/b&gt; <00:00:01.500>A--&gt;B\n\n' +
        '00:00:03.000 --> 00:00:04.250\nsecond <00:00:03.500>line\n',
    );
    // A WebVTT reader gets the words back as text, timestamps stripped.
    expect(parseWebVtt(vtt).map((c) => c.text)).toEqual(['Hello <b>bold</b> A-->B', 'second line']);
  });

  it('WebVTT: a word timestamp outside its cue or out of order is left out', () => {
    const vtt = projectToWebVtt([{ id: 'x', words: [w('a', 1, 2), w('b', 0.5, 2), w('c', 2.2, 2.2)] }]);
    expect(vtt).toContain('00:00:00.500 --> 00:00:02.200\na b c\n');
  });

  it('TXT: one line per caption line; line breaks inside words cannot add cues', () => {
    expect(projectToText(LINES)).toBe('Hello <b>bold</b> A-->B\nsecond line\n');
    const srt = projectToSrt([{ id: 'n', words: [w('a\n\n2\n00:00:09,000 --> 00:00:10,000\nb', 0, 1)] }]);
    expect(srt.split('\n').filter((l) => l.includes('-->'))).toHaveLength(1);
    expect(projectToText([])).toBe('');
  });
});

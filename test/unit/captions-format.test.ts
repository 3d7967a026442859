import { describe, expect, it } from 'vitest';
import {
  normalizeSegments,
  parseTimestamp,
  parseWebVtt,
  toSrt,
  toWebVtt,
  transcriptFileName,
} from '../../src/shared/captions.js';

const VTT = `WEBVTT

1
00:00:00.120 --> 00:00:02.500
<c.color>Hello</c> &amp; welcome

NOTE this is a comment

2
00:00:02.400 --> 00:00:05.000 align:start
to the <v Maya>channel</v>

00:01.000 --> 00:01.500

00:06.000 --> 00:07.250
last line
`;

describe('WebVTT', () => {
  it('parses timestamps with and without hours', () => {
    expect(parseTimestamp('00:01:02.345')).toBeCloseTo(62.345);
    expect(parseTimestamp('01:02.3')).toBeCloseTo(62.3);
    expect(parseTimestamp('nonsense')).toBeNaN();
  });
  it('reads cues, strips tags and entities, skips notes and empty cues', () => {
    expect(parseWebVtt(VTT)).toEqual([
      { start: 0.12, end: 2.5, text: 'Hello & welcome' },
      { start: 2.4, end: 5, text: 'to the channel' },
      { start: 6, end: 7.25, text: 'last line' },
    ]);
    expect(() => parseWebVtt('1\n00:00:01,000 --> 00:00:02,000\nnot vtt')).toThrow();
  });
  it('normalises to ordered, non-overlapping segments inside the duration', () => {
    const segs = normalizeSegments(parseWebVtt(VTT).reverse(), 7);
    expect(segs).toEqual([
      { id: 1, start: 0.12, end: 2.4, text: 'Hello & welcome' },
      { id: 2, start: 2.4, end: 5, text: 'to the channel' },
      { id: 3, start: 6, end: 7, text: 'last line' },
    ]);
    for (let i = 1; i < segs.length; i++) expect(segs[i].start).toBeGreaterThanOrEqual(segs[i - 1].end);
  });
  it('writes SRT and WebVTT that read back the same', () => {
    const segs = normalizeSegments(parseWebVtt(VTT), 0);
    const srt = toSrt(segs);
    expect(srt).toContain('1\n00:00:00,120 --> 00:00:02,400\nHello & welcome\n');
    const vtt = toWebVtt(segs);
    expect(normalizeSegments(parseWebVtt(vtt), 0)).toEqual(segs);
  });
  it('builds the transcript file name from a sanitised title', () => {
    expect(transcriptFileName('My Trip: Tokyo / Day 1?!')).toBe('My_Trip_Tokyo_Day_1_transcription.txt');
    expect(transcriptFileName('')).toBe('video_transcription.txt');
    expect(transcriptFileName('a<b>', '.srt')).toBe('a_b.srt');
  });
});

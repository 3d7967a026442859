// The ASS file from caption-ass.ts burned into a real video by ffmpeg's libass, then read back from
// a frame by Debian's tesseract-ocr: the words show, hostile text shows as typed, presets render.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildAss, DEFAULT_CAPTION_STYLE } from '../../src/shared/caption-ass.js';
import type { CaptionLine, CaptionStyle } from '../../src/shared/contracts/caption-studio.js';
import { FFMPEG } from '../fakes/media-samples.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-ass-burn-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const w = (text: string, start: number, end: number) => ({ text, start, end });
const W = 540;
const H = 960;

/**
 * Burns the project's ASS into a plain dark clip (negated to dark-on-light for OCR) and returns
 * tesseract's reading of the frame at `at` seconds.
 */
function burnAndRead(name: string, lines: CaptionLine[], style: Partial<CaptionStyle>, at: number): string {
  const ass = path.join(dir, `${name}.ass`);
  fs.writeFileSync(ass, buildAss({ width: W, height: H, lines, style: { ...DEFAULT_CAPTION_STYLE, ...style } }));
  const png = path.join(dir, `${name}.png`);
  execFileSync(FFMPEG, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `color=c=0x203040:s=${W}x${H}:d=4:r=10`, '-vf', `ass=${ass},negate,format=gray`, '-ss', String(at)],
    ...['-frames:v', '1', png],
  ]);
  return execFileSync('tesseract', [png, '-', '--psm', '6'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

const LINES: CaptionLine[] = [
  { id: 'a', words: [w('Welcome', 0, 0.5), w('creators', 0.5, 1)] },
  { id: 'b', words: [w('Studio', 2, 2.5), w('captions', 2.5, 3.5)] },
];

describe('ASS burned in by ffmpeg (libass), read back by tesseract', () => {
  it('shows the words of the line on screen at that moment, and only those', () => {
    const early = burnAndRead('clean-early', LINES, { size: 96 }, 0.7);
    expect(early).toMatch(/Welcome creators/);
    expect(early).not.toMatch(/Studio/);
    const late = burnAndRead('clean-late', LINES, { size: 96 }, 2.7);
    expect(late).toMatch(/Studio captions/);
  });

  it('renders the boxed, bold and karaoke presets readably at every position', () => {
    expect(burnAndRead('boxed', LINES, { preset: 'boxed', size: 96, position: 'top' }, 0.7)).toMatch(
      /Welcome creators/,
    );
    expect(burnAndRead('bold', LINES, { preset: 'bold', size: 96, position: 'middle' }, 0.7)).toMatch(
      /WELCOME\s+CREATORS/,
    );
    expect(burnAndRead('karaoke', LINES, { preset: 'karaoke', size: 96 }, 2.7)).toMatch(/Studio captions/);
  });

  it('shows hostile override tags and escapes as typed text instead of obeying them', () => {
    const hostile = [{ id: 'h', words: [w('{\\p1}m', 0, 1), w('0', 0, 1), w('0', 0, 1), w('a\\Nb', 0, 1)] }];
    const text = burnAndRead('hostile', hostile, { size: 96, wordsPerLine: 4 }, 0.5);
    // A drawing command would paint a shape and \N would break the line: both show as characters.
    expect(text).toMatch(/p1/);
    expect(text).toMatch(/a\\Nb/);
  });
});

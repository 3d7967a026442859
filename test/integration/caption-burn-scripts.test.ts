// Right-to-left and CJK captions burn in (issue 29): libass with fribidi and harfbuzz, and a font
// for every glyph (Debian's Noto CJK beside DejaVu for Arabic and Hebrew). libass says so on stderr
// when it has no font for a glyph (it would draw empty boxes); a script with no font installed
// shows that the check can fail.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildAss, DEFAULT_CAPTION_STYLE } from '../../src/shared/caption-ass.js';
import { burnArgs } from '../../src/server/adapters/media/caption-burn.js';
import { fontsDir } from '../../src/server/adapters/media/studio-fonts.js';
import { FFMPEG, toneMp4 } from '../fakes/media-samples.js';

async function burn(text: string): Promise<{ stderr: string; file: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burn-scripts-'));
  const ass = path.join(dir, 'c.ass');
  fs.writeFileSync(
    ass,
    buildAss({
      width: 320,
      height: 568,
      style: { ...DEFAULT_CAPTION_STYLE, wordsPerLine: 6 },
      lines: [{ id: 'a', words: text.split(' ').map((t, i) => ({ text: t, start: 0 + i * 0.1, end: 1.9 })) }],
    }),
  );
  const file = path.join(dir, 'out.mp4');
  const args = burnArgs({
    input: toneMp4(2, { faststart: true }),
    ass,
    fontsDir: await fontsDir(dir),
    output: file,
    width: 320,
    height: 568,
    audioCodec: 'aac',
  }).map((a) => (a === 'error' ? 'warning' : a)); // libass reports missing glyphs as warnings
  const run = spawnSync(FFMPEG, args, { encoding: 'utf8' });
  expect(run.status).toBe(0);
  return { stderr: run.stderr, file };
}

const MISSING = /failed to find any fallback|Glyph 0x[0-9A-F]+ not found/i;

describe('burned-in captions in every script', () => {
  it('runs on an ffmpeg whose libass has fribidi and harfbuzz', () => {
    const filters = execFileSync(FFMPEG, ['-hide_banner', '-filters'], { encoding: 'utf8' });
    expect(filters).toMatch(/\bass\b.*libass/);
    const conf = execFileSync(FFMPEG, ['-hide_banner', '-buildconf'], { encoding: 'utf8' });
    expect(conf).toContain('--enable-libfribidi');
    expect(conf).toContain('--enable-libass');
  });

  it.each([
    ['Arabic (right to left)', 'مرحبا بالعالم'],
    ['Hebrew (right to left)', 'שלום עולם'],
    ['Chinese', '你好 世界'],
    ['Japanese', 'こんにちは 世界'],
    ['Korean', '안녕하세요 세계'],
  ])(
    '%s has a font for every glyph',
    async (_name, text) => {
      const { stderr } = await burn(text);
      expect(stderr).not.toMatch(MISSING);
    },
    60_000,
  );

  it('would notice a script with no font installed', async () => {
    // The first of a few rare scripts this machine has no font for (a machine with every Noto font
    // has Ol Chiki): fontconfig says which; Unicode 15's Kawi and Nag Mundari are in no Debian 12 font.
    const rare = [
      'ᱚᱞ ᱪᱤᱠᱤ',
      '\u{1E290}\u{1E291} \u{1E292}',
      '\u{1E4D0}\u{1E4D1} \u{1E4D2}',
      '\u{11F04}\u{11F05} \u{11F06}',
    ];
    const noFont = (text: string) =>
      spawnSync('fc-list', [`:charset=${(text.codePointAt(0) as number).toString(16)}`], {
        encoding: 'utf8',
      }).stdout?.trim() === '';
    const text = rare.find(noFont) ?? (rare.at(-1) as string);
    const { stderr } = await burn(text);
    expect(stderr).toMatch(MISSING);
  }, 60_000);
});

// Text exports of a caption project: SRT, WebVTT with word timing (karaoke-style `<hh:mm:ss.ttt>`
// timestamps inside each cue) and plain text. One cue per editor line, shaped like a subtitle
// (src/shared/subtitle-lines.ts): a line that breaks the rules is cut, each cue has one or two rows
// and stays on screen at least a second when the next cue leaves room. The words carry the times.
import type { CaptionLine } from './contracts/caption-studio.js';
import { displayEnd, flowWords, rowBreak } from './subtitle-lines.js';

/** Control characters (line breaks included) would end a cue early: they become spaces. */
const plain = (text: string) => text.replace(/[\p{Cc}\u2028\u2029]/gu, ' ').trim();

function clock(seconds: number, sep: ',' | '.'): string {
  const ms = Math.max(0, Math.round((Number.isFinite(seconds) ? seconds : 0) * 1000));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)}${sep}${pad(ms % 1000, 3)}`;
}

interface Cue {
  start: number;
  end: number;
  words: { text: string; start: number; end: number }[];
}

/** Lines in time order with their span; words with no text after cleaning are dropped, empty lines too. */
function lineCues(lines: CaptionLine[]): Cue[] {
  return lines
    .map((line) => {
      const words = line.words.map((w) => ({ text: plain(w.text), start: w.start, end: w.end })).filter((w) => w.text);
      if (words.length === 0) return null;
      const start = Math.min(...words.map((w) => w.start));
      const end = Math.max(start, ...words.map((w) => w.end));
      return { start, end, words };
    })
    .filter((c): c is Cue => c !== null)
    .sort((a, b) => a.start - b.start);
}

/** Subtitle cues: over-long lines cut by the subtitle rules, each shown long enough to be read. */
function cues(lines: CaptionLine[]): Cue[] {
  const cut = lineCues(lines).flatMap((c) =>
    flowWords(c.words).map((words) => ({
      start: Math.min(...words.map((w) => w.start)),
      end: Math.max(...words.map((w) => w.end)),
      words,
    })),
  );
  return cut.map((c, i) => ({ ...c, end: displayEnd(c.start, c.end, cut[i + 1]?.start) }));
}

/** The cue's words (as each export writes them) in one or two rows. */
function rows(cue: Cue, word: (w: Cue['words'][number], i: number) => string): string {
  const all = cue.words.map(word);
  const at = rowBreak(cue.words.map((w) => w.text)) ?? 0;
  return at > 0 ? `${all.slice(0, at).join(' ')}\n${all.slice(at).join(' ')}` : all.join(' ');
}

const lineText = (cue: Cue) => cue.words.map((w) => w.text).join(' ');

export function projectToSrt(lines: CaptionLine[]): string {
  return cues(lines)
    .map((c, i) => {
      const text = rows(c, (w) => w.text.replace(/-->/g, '->'));
      return `${i + 1}\n${clock(c.start, ',')} --> ${clock(c.end, ',')}\n${text}\n`;
    })
    .join('\n');
}

/** WebVTT cue text is markup: `&`, `<`, `>` are escaped so a word is never read as a tag or an arrow. */
const vttEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function projectToWebVtt(lines: CaptionLine[]): string {
  const body = cues(lines).map((c) => {
    // A timestamp tag must fall strictly inside the cue and increase: the first word needs none.
    let last = c.start;
    const text = rows(c, (w, i) => {
      const t = vttEscape(w.text);
      if (i === 0 || !(w.start > last && w.start < c.end)) return t;
      last = w.start;
      return `<${clock(w.start, '.')}>${t}`;
    });
    return `${clock(c.start, '.')} --> ${clock(c.end, '.')}\n${text}\n`;
  });
  return `WEBVTT\n\n${body.join('\n')}`;
}

export function projectToText(lines: CaptionLine[]): string {
  const text = lineCues(lines).map(lineText).join('\n');
  return text ? `${text}\n` : '';
}

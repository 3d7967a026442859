// Caption lines shaped like subtitles (issue 36), by the rules subtitle style guides share (Netflix's
// timed-text guide, the BBC's): at most two rows of about 42 characters, 1 to 7 seconds on screen,
// a new line at a pause in the speech and after a sentence ends. The editor's lines, the transcript's
// first cut and the SRT/VTT exports all use these functions, so what a creator sees is what they export.
import type { CaptionLine, CaptionWord } from './contracts/caption-studio.js';

export const SUBTITLE_RULES = {
  rowChars: 42,
  rows: 2,
  minSeconds: 1,
  maxSeconds: 7,
  /** A silence this long between two words starts a new line. */
  pauseSeconds: 0.3,
} as const;

type Word = Pick<CaptionWord, 'text' | 'start' | 'end'>;

const chars = (text: string) => Array.from(text).length;
const SENTENCE_END = /[.!?…。！？]["'”’)\]]*$/u;
const CLAUSE_END = /[,;:–—]["'”’)\]]*$/u;

/**
 * Where the words break into two rows, placed where the rows are most even: 0 when they fit on one
 * row, null when they do not fit in two rows of `rowChars` (a single word longer than a row is
 * allowed a row of its own).
 */
export function rowBreak(words: readonly string[]): number | null {
  const { rowChars } = SUBTITLE_RULES;
  const lens = words.map(chars);
  const total = lens.reduce((a, b) => a + b, 0) + Math.max(0, words.length - 1);
  if (total <= rowChars) return 0;
  let best: number | null = null;
  let bestLongest = Number.POSITIVE_INFINITY;
  let first = -1; // the first row's length, its words joined by spaces
  for (let i = 1; i < words.length; i++) {
    first += lens[i - 1] + 1;
    const second = total - first - 1;
    const fits = (first <= rowChars || i === 1) && (second <= rowChars || i === words.length - 1);
    const longest = Math.max(first, second);
    if (fits && longest < bestLongest) [best, bestLongest] = [i, longest];
  }
  return best;
}

/** Whether a run of words makes an acceptable subtitle: two rows at most and no more than seven seconds. */
export function fitsSubtitle(words: readonly Word[]): boolean {
  if (words.length <= 1) return true;
  const span = words[words.length - 1].end - words[0].start;
  return span <= SUBTITLE_RULES.maxSeconds && rowBreak(words.map((w) => w.text)) !== null;
}

/** Where to cut a run that has grown too long: after a sentence, else a clause, else the widest pause. */
function bestCut(run: readonly Word[]): number {
  let cut = run.length - 1;
  let score = -1;
  // Only the second half is searched, so neither part becomes a stub.
  for (let i = Math.max(1, Math.ceil(run.length / 2)); i < run.length; i++) {
    const prev = run[i - 1];
    const gap = Math.max(0, run[i].start - prev.end);
    const s = SENTENCE_END.test(prev.text) ? 3 + gap : CLAUSE_END.test(prev.text) ? 2 + gap : gap;
    if (s >= score) [cut, score] = [i, s];
  }
  return cut;
}

/** Words cut into subtitle-shaped runs, in order; every word is kept. */
export function flowWords<W extends Word>(words: readonly W[]): W[][] {
  const runs: W[][] = [];
  let run: W[] = [];
  for (const word of words) {
    const prev = run[run.length - 1];
    if (prev && word.start - prev.end >= SUBTITLE_RULES.pauseSeconds) {
      runs.push(run);
      run = [];
    }
    run.push(word);
    if (!fitsSubtitle(run)) {
      const cut = bestCut(run);
      runs.push(run.slice(0, cut));
      run = run.slice(cut);
      // A single word too long for the time rule still gets its own line rather than being lost.
      while (run.length > 1 && !fitsSubtitle(run)) {
        const c = bestCut(run);
        runs.push(run.slice(0, c));
        run = run.slice(c);
      }
    }
    if (SENTENCE_END.test(word.text)) {
      runs.push(run);
      run = [];
    }
  }
  if (run.length) runs.push(run);
  return runs.filter((r) => r.length > 0);
}

/**
 * The line at `index` cut again when it no longer reads as a subtitle (a word grew, words were
 * added) or holds more than `maxWords`; a line that still fits is returned unchanged, so ids and the
 * editor's focus stay put. The first piece keeps the line's id.
 */
export function reflowLine(
  lines: CaptionLine[],
  index: number,
  limits: { maxWords: number; maxLines: number; newId: () => string },
): CaptionLine[] {
  const line = lines[index];
  if (!line || (line.words.length <= limits.maxWords && fitsSubtitle(line.words))) return lines;
  const pieces = flowWords(line.words).flatMap((run) => {
    const out = [];
    for (let i = 0; i < run.length; i += limits.maxWords) out.push(run.slice(i, i + limits.maxWords));
    return out;
  });
  const next = [...lines];
  next.splice(index, 1, ...pieces.map((words, i) => ({ id: i === 0 ? line.id : limits.newId(), words })));
  return next.slice(0, limits.maxLines);
}

/**
 * A cue's time on screen: at least `minSeconds` when the next cue leaves room, never over the next
 * cue's start, and never past `maxSeconds` from its own start.
 */
export function displayEnd(start: number, end: number, nextStart: number | undefined): number {
  const wanted = Math.max(end, start + SUBTITLE_RULES.minSeconds);
  const limit = nextStart === undefined ? wanted : Math.max(end, Math.min(wanted, nextStart));
  return Math.min(limit, Math.max(end, start + SUBTITLE_RULES.maxSeconds));
}

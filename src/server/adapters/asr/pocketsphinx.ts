// Pure parts of the offline pipeline (unit-tested): the batch control file and the -hypseg
// output of Debian's pocketsphinx 0.8 `pocketsphinx_batch` (research note §3a, format B).
import type { RawCue } from '../../../shared/captions.js';
import type { SilenceSpan } from '../media/ffmpeg-args.js';

const FRAMES_PER_SECOND = 100;
const MAX_SPAN_SECONDS = 25;

export interface CtlEntry {
  id: string;
  startFrame: number;
  endFrame: number;
}

/** One control line per speech span; very long spans are cut so one utterance stays bounded. */
export function controlEntries(spans: SilenceSpan[]): CtlEntry[] {
  const out: CtlEntry[] = [];
  for (const s of spans) {
    for (let t = s.start; t < s.end - 0.05; t += MAX_SPAN_SECONDS - 5) {
      const end = Math.min(s.end, t + MAX_SPAN_SECONDS);
      out.push({
        id: `u${out.length}`,
        startFrame: Math.floor(t * FRAMES_PER_SECOND),
        endFrame: Math.ceil(end * FRAMES_PER_SECOND),
      });
      if (end >= s.end) break;
    }
  }
  return out;
}

export function controlFile(fileBase: string, entries: CtlEntry[]): string {
  return `${entries.map((e) => `${fileBase} ${e.startFrame} ${e.endFrame} ${e.id}`).join('\n')}\n`;
}

export interface Word {
  word: string;
  start: number;
  end: number;
}

const FILLER = /^(<s>|<\/s>|<sil>|\[[A-Z_]+\]|\+\+.*\+\+|\+.*\+)$/i;

/** Words with absolute times from hypseg lines: `<id> S . T . A . L . (frame ascr lscr word)* endFrame`. */
export function parseHypseg(text: string, entries: CtlEntry[]): Word[] {
  const startOf = new Map(entries.map((e) => [e.id, e.startFrame]));
  const words: Word[] = [];
  for (const line of text.split('\n')) {
    const tok = line.trim().split(/\s+/);
    if (tok.length < 10) continue;
    const base = startOf.get(tok[0]);
    if (base === undefined) continue;
    const quads: Array<{ frame: number; word: string }> = [];
    let i = 9;
    for (; i + 3 < tok.length; i += 4) quads.push({ frame: Number(tok[i]), word: tok[i + 3] });
    const finalFrame = Number(tok[i] ?? quads[quads.length - 1]?.frame ?? 0);
    quads.forEach((q, k) => {
      const w = q.word.replace(/\(\d+\)$/, '');
      if (FILLER.test(w) || !Number.isFinite(q.frame)) return;
      const nextFrame = k + 1 < quads.length ? quads[k + 1].frame : finalFrame;
      words.push({ word: w, start: (base + q.frame) / FRAMES_PER_SECOND, end: (base + nextFrame) / FRAMES_PER_SECOND });
    });
  }
  return words.sort((a, b) => a.start - b.start);
}

/** Caption-sized cues from words: a new cue at a pause of `gap` seconds or after `maxLen` seconds. */
export function wordsToCues(words: Word[], opts: { gap?: number; maxLen?: number } = {}): RawCue[] {
  const gap = opts.gap ?? 0.25;
  const maxLen = opts.maxLen ?? 8;
  const cues: RawCue[] = [];
  let cur: { start: number; end: number; words: Word[] } | null = null;
  // The recogniser's own word times travel with each cue (issue 29).
  const close = (c: { start: number; end: number; words: Word[] }) =>
    cues.push({
      start: c.start,
      end: c.end,
      text: c.words.map((w) => w.word).join(' '),
      words: c.words.map((w) => ({ text: w.word, start: w.start, end: w.end })),
    });
  for (const w of words) {
    if (cur && (w.start - cur.end >= gap || w.end - cur.start > maxLen)) {
      close(cur);
      cur = null;
    }
    if (!cur) cur = { start: w.start, end: w.end, words: [] };
    cur.words.push(w);
    cur.end = w.end;
  }
  if (cur) close(cur);
  return cues;
}

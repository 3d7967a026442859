// Caption formats shared by server and client: WebVTT parsing (a platform's own captions), segment
// normalisation (ordered, non-overlapping, inside the media) and SRT / WebVTT / text output.
import { stripTags } from './markup.js';
import { STUDIO_LIMITS, type CaptionWord } from './contracts/caption-studio.js';

export interface CaptionSegment {
  id: number;
  start: number; // seconds
  end: number; // seconds
  text: string;
  /** Word times (issue 29) where the engine gave or we could spread them; inside [start, end]. */
  words?: CaptionWord[];
}

export interface RawCue {
  start: number;
  end: number;
  text: string;
  words?: CaptionWord[];
}

/**
 * Word times spread over a cue by character count (a caption file knows only cue times): each word
 * gets a share of the cue proportional to its length plus one, so short words still show.
 */
export function spreadWords(cue: RawCue): CaptionWord[] {
  const tokens = cue.text.split(/\s+/).filter(Boolean);
  const span = Math.max(0, cue.end - cue.start);
  const weights = tokens.map((t) => t.length + 1);
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  let t = cue.start;
  return tokens.map((text, i) => {
    const start = t;
    t += (span * weights[i]) / total;
    return { text: clipWord(text), start: round3(start), end: round3(i === tokens.length - 1 ? cue.end : t) };
  });
}

/** A word longer than the contract allows is cut (a 10,000-character "word" stays bounded). */
function clipWord(text: string): string {
  if (text.length <= STUDIO_LIMITS.wordChars) return text;
  let out = '';
  let n = 0;
  for (const ch of text) {
    if (n++ === STUDIO_LIMITS.wordChars) break;
    out += ch; // by code point, and only the first ones: a 2 MB "word" is not split into an array
  }
  return out;
}

/** Words inside [start, end], ordered, with text; times rounded like the segments'. */
function fitWords(words: CaptionWord[] | undefined, start: number, end: number): CaptionWord[] | undefined {
  if (!words) return undefined;
  const out: CaptionWord[] = [];
  for (const w of words) {
    const text = clipWord(w.text.replace(/\s+/g, ' ').trim());
    if (!text || !Number.isFinite(w.start) || !Number.isFinite(w.end)) continue;
    const s = Math.min(end, Math.max(start, w.start));
    const e = Math.min(end, Math.max(s, w.end));
    const word: CaptionWord = { text, start: round3(s), end: round3(e) };
    if (typeof w.confidence === 'number' && Number.isFinite(w.confidence))
      word.confidence = Math.round(Math.min(1, Math.max(0, w.confidence)) * 1000) / 1000;
    out.push(word);
  }
  return out.sort((a, b) => a.start - b.start);
}

/** `hh:mm:ss.ttt` or `mm:ss.ttt` (a comma is accepted too) to seconds; NaN when malformed. */
export function parseTimestamp(ts: string): number {
  const m = /^(?:(\d+):)?(\d{1,2}):(\d{1,2})[.,](\d{1,3})$/.exec(ts.trim());
  if (!m) return NaN;
  const [, h, mi, s, ms] = m;
  return Number(h ?? 0) * 3600 + Number(mi) * 60 + Number(s) + Number(ms.padEnd(3, '0')) / 1000;
}

const decodeEntities = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** WebVTT cues; tags such as <c>, <v Name>, <00:00:01.000> are stripped, NOTE/STYLE blocks skipped. */
export function parseWebVtt(text: string): RawCue[] {
  return Array.from(webVttCues(text));
}

/** parseWebVtt one cue at a time, so a caller with a large file can let other work run between cues. */
export function* webVttCues(text: string): Generator<RawCue> {
  const body = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!/^WEBVTT/.test(body.trimStart())) throw new Error('not a WebVTT file');
  for (const block of body.split(/\n{2,}/)) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    const timing = lines.findIndex((l) => l.includes('-->'));
    if (timing < 0) continue;
    const [a, b] = lines[timing].split('-->');
    const start = parseTimestamp(a);
    const end = parseTimestamp((b ?? '').trim().split(/\s+/)[0] ?? '');
    if (!Number.isFinite(start) || !Number.isFinite(end)) continue;
    const cueText = decodeEntities(stripTags(lines.slice(timing + 1).join(' ')))
      .replace(/\s+/g, ' ')
      .trim();
    if (cueText) yield { start, end, text: cueText };
  }
}

/** Ordered, non-overlapping segments inside [0, duration], numbered from 1, empty text dropped. */
export function normalizeSegments(cues: RawCue[], duration: number): CaptionSegment[] {
  const limit = duration > 0 ? duration : Infinity;
  const sorted = cues
    .map((c) => ({
      start: Math.max(0, c.start),
      end: Math.min(limit, c.end),
      text: c.text.replace(/\s+/g, ' ').trim(),
      words: c.words,
    }))
    .filter((c) => c.text && c.start < limit && Number.isFinite(c.start))
    .sort((x, y) => x.start - y.start);
  // Cues that share a start are merged: their texts and words are collected in lists of their own
  // and joined once, so a file of many cues at 0:00 costs its length, not its length squared.
  const out: Array<{ start: number; end: number; texts: string[]; words?: CaptionWord[]; ownWords: boolean }> = [];
  for (const c of sorted) {
    const prev = out[out.length - 1];
    let start = c.start;
    if (prev && start < prev.end) {
      // Overlap: the earlier cue ends where this one starts (or they share a start: merge).
      if (start <= prev.start) {
        prev.texts.push(c.text);
        prev.end = Math.max(prev.end, Math.min(limit, c.end));
        if (prev.words || c.words) {
          if (!prev.ownWords) prev.words = [...(prev.words ?? [])];
          prev.ownWords = true;
          for (const w of c.words ?? []) prev.words?.push(w);
        }
        continue;
      }
      prev.end = start;
    }
    const end = Math.max(start, Math.min(limit, c.end));
    start = round3(start);
    out.push({ start, end: round3(end), texts: [c.text], ownWords: false, ...(c.words ? { words: c.words } : {}) });
  }
  return out.map((s, i) => {
    const seg: CaptionSegment = { id: i + 1, start: round3(s.start), end: round3(s.end), text: s.texts.join(' ') };
    if (s.words) seg.words = fitWords(s.words, seg.start, seg.end);
    return seg;
  });
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

function clock(seconds: number, sep: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}${sep}${pad(ms % 1000, 3)}`;
}

export function toSrt(segments: CaptionSegment[]): string {
  return segments.map((s, i) => `${i + 1}\n${clock(s.start, ',')} --> ${clock(s.end, ',')}\n${s.text}\n`).join('\n');
}

export function toWebVtt(segments: CaptionSegment[]): string {
  const cues = segments.map(
    (s) => `${clock(s.start, '.')} --> ${clock(s.end, '.')}\n${s.text.replace(/-->/g, '->')}\n`,
  );
  return `WEBVTT\n\n${cues.join('\n')}`;
}

/** `m:ss` for the segment list. */
export function shortClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Decision 0092 'Constants' (transcript file name): the sanitised title plus a suffix, e.g. `_transcription.txt`. */
export function transcriptFileName(title: string, suffix = '_transcription.txt'): string {
  const base = title
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 80);
  return `${base || 'video'}${suffix}`;
}

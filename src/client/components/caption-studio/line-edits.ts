// The editor's changes to caption lines as pure functions (tested without a browser): fix a word,
// split a line before a word, merge a line with the next, nudge a line's timing. Every result stays
// inside the contract's bounds, so an autosave never fails validation, and a line that grows past a
// subtitle's shape (two rows of 42 characters, seven seconds) is re-flowed into several.
import { type CaptionLine, type CaptionWord, STUDIO_LIMITS } from '@shared/contracts/caption-studio';
import { fitsSubtitle, reflowLine } from '@shared/subtitle-lines';

/** Words below this confidence are marked for a second look. */
export const LOW_CONFIDENCE = 0.6;

export const isUnsure = (w: CaptionWord) => w.confidence !== undefined && w.confidence < LOW_CONFIDENCE;

let counter = 0;
/** A line id unique in this browser session (the server only needs ids unique within a project). */
export const newLineId = () => `l${Date.now().toString(36)}${(counter++).toString(36)}`.slice(0, 40);

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * A corrected word. Typing a space splits it into several words sharing its time; clearing it
 * removes the word (the line goes when its last word goes). A corrected word is no longer "unsure".
 */
export function setWordText(lines: CaptionLine[], lineIndex: number, wordIndex: number, text: string): CaptionLine[] {
  const line = lines[lineIndex];
  const word = line?.words[wordIndex];
  if (!word) return lines;
  const parts = text
    .replace(/\s+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .map((p) => Array.from(p).slice(0, STUDIO_LIMITS.wordChars).join(''));
  const span = (word.end - word.start) / Math.max(1, parts.length);
  const replacement: CaptionWord[] = parts.map((p, i) => ({
    text: p,
    start: round3(word.start + i * span),
    end: round3(i === parts.length - 1 ? word.end : word.start + (i + 1) * span),
  }));
  const words = [...line.words.slice(0, wordIndex), ...replacement, ...line.words.slice(wordIndex + 1)];
  if (words.length === 0) return lines.filter((_, i) => i !== lineIndex);
  const next = [...lines];
  next.splice(lineIndex, 1, { ...line, words });
  // Too many words, or too long for two rows: the line is cut into subtitle-shaped lines.
  return reflowLine(next, lineIndex, {
    maxWords: STUDIO_LIMITS.wordsPerLine,
    maxLines: STUDIO_LIMITS.lines,
    newId: newLineId,
  });
}

/** A new line starting at `wordIndex` (nothing happens at the first word). */
export function splitLine(lines: CaptionLine[], lineIndex: number, wordIndex: number): CaptionLine[] {
  const line = lines[lineIndex];
  if (!line || wordIndex <= 0 || wordIndex >= line.words.length || lines.length >= STUDIO_LIMITS.lines) return lines;
  const next = [...lines];
  next.splice(
    lineIndex,
    1,
    { ...line, words: line.words.slice(0, wordIndex) },
    { id: newLineId(), words: line.words.slice(wordIndex) },
  );
  return next;
}

/** The line and the one after it become one (refused when the result would not read as one subtitle). */
export function mergeWithNext(lines: CaptionLine[], lineIndex: number): CaptionLine[] {
  const a = lines[lineIndex];
  const b = lines[lineIndex + 1];
  if (
    !a ||
    !b ||
    a.words.length + b.words.length > STUDIO_LIMITS.wordsPerLine ||
    !fitsSubtitle([...a.words, ...b.words])
  )
    return lines;
  const next = [...lines];
  next.splice(lineIndex, 2, { ...a, words: [...a.words, ...b.words] });
  return next;
}

/** Shifts every word of a line by `delta` seconds, never before 0. */
export function nudgeLine(lines: CaptionLine[], lineIndex: number, delta: number): CaptionLine[] {
  const line = lines[lineIndex];
  if (!line) return lines;
  const shift = Math.max(delta, -Math.min(...line.words.map((w) => w.start)));
  return lines.map((l, i) =>
    i === lineIndex
      ? { ...l, words: l.words.map((w) => ({ ...w, start: round3(w.start + shift), end: round3(w.end + shift) })) }
      : l,
  );
}

export const lineStart = (line: CaptionLine) => line.words[0]?.start ?? 0;
export const lineEnd = (line: CaptionLine) => line.words[line.words.length - 1]?.end ?? 0;

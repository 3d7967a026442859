// Hashtag and caption text rules shared by both engines: what a valid hashtag is, de-duplication,
// and removing markup from user text (captions are plain text on every platform).
import { stripCode, stripTags } from '../../shared/markup.js';

/** Letters (any script), combining marks, digits and underscore: what TikTok and Instagram accept. */
const NOT_TAG_CHAR = /[^\p{L}\p{M}\p{N}_]/gu;
const HAS_LETTER = /\p{L}/u;
export const HASHTAG_MAX_LENGTH = 40;

/** '#Garlic Butter!' -> '#garlicbutter'; null when nothing usable is left. */
export function toHashtag(raw: string): string | null {
  const body = raw.normalize('NFC').replace(/^#+/, '').replace(NOT_TAG_CHAR, '').toLowerCase();
  if (body.length < 2 || body.length > HASHTAG_MAX_LENGTH || !HAS_LETTER.test(body)) return null;
  return `#${body}`;
}

/** Valid, unique (case-insensitive) hashtags in their first order. */
export function cleanHashtags(list: readonly unknown[], max = Infinity): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of list) {
    if (typeof item !== 'string') continue;
    const tag = toHashtag(item.trim());
    if (!tag || seen.has(tag)) continue;
    seen.add(tag);
    out.push(tag);
    if (out.length >= max) break;
  }
  return out;
}

/** Drops HTML/XML tags and control characters; keeps line breaks. */
export function stripMarkup(text: string): string {
  return (
    // Script and style bodies are code, not words of the creator; both steps are one pass over text
    // a language model may have sent (shared/markup.ts).
    stripTags(stripCode(text), ' ', { tagLike: true })
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
      .replace(/[ \t]+/g, ' ')
      .replace(/ *\n */g, '\n')
      .trim()
  );
}

/** Cuts text to at most `max` UTF-16 units at a word boundary, adding '…' when it cut. */
export function truncateAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return text.slice(0, Math.max(0, max));
  const cut = text.slice(0, max - 1);
  const space = cut.search(/\s\S*$/);
  const base = space > max * 0.6 ? cut.slice(0, space) : cut;
  // Never leave half of a surrogate pair behind.
  const safe = /[\uD800-\uDBFF]$/.test(base) ? base.slice(0, -1) : base;
  return `${safe.trimEnd()}…`;
}

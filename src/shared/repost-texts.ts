// A repost kit's text for one target (issue 47), within that target's rules
// (REPOST_TARGET_LIMITS): its length as the target counts it, its hashtag count, hashtags at the
// end, its line breaks and, for a title field, one short line. Pure, so the server makes the texts
// and the screen checks the creator's edits with the same rules.
import { REPOST_TARGET_LIMITS, type RepostCaptionRules, type RepostTarget } from './platform-limits.js';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const encoder = new TextEncoder();

/** Graphemes of a text: an emoji with its modifiers is one, as people count. */
export const graphemes = (text: string): string[] => Array.from(segmenter.segment(text), (s) => s.segment);

/** The text's length as the target counts it. */
export function lengthFor(rules: RepostCaptionRules, text: string): number {
  return rules.count === 'graphemes' ? graphemes(text).length : text.length;
}

/** True when the text is within every ceiling of the target (length and bytes). */
export function fitsRules(rules: RepostCaptionRules, text: string): boolean {
  if (lengthFor(rules, text) > rules.characterLimit) return false;
  return !rules.byteLimit || encoder.encode(text).length <= rules.byteLimit;
}

/** Cuts `text` to `room` (as the target counts) at a word when one is near, whole graphemes only, '…' when cut. */
export function cutTo(rules: RepostCaptionRules, text: string, room: number): string {
  if (room <= 0) return '';
  const within = { ...rules, characterLimit: room };
  if (fitsRules(within, text)) return text;
  // One walk over the graphemes, keeping room for the '…' (one grapheme, one UTF-16 unit, three bytes).
  const byteRoom = rules.byteLimit ? rules.byteLimit - 3 : Number.POSITIVE_INFINITY;
  let length = 0;
  let bytes = 0;
  let end = 0;
  for (const { segment } of segmenter.segment(text)) {
    length += rules.count === 'graphemes' ? 1 : segment.length;
    bytes += encoder.encode(segment).length;
    if (length > room - 1 || bytes > byteRoom) break;
    end += segment.length;
  }
  if (end === 0) return '';
  const cut = text.slice(0, end);
  const space = cut.search(/\s\S*$/u);
  const base = space > cut.length * 0.6 ? cut.slice(0, space) : cut;
  return `${base.trimEnd()}…`;
}

/** Half of a surrogate pair on its own (cut text from elsewhere) is no character: it goes. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const wellFormed = (text: string) => text.replace(LONE_SURROGATE, '');

const TAG = /(^|[^\p{L}\p{N}_&])#([\p{L}\p{M}\p{N}_]+)/gu;

/** The hashtags a text carries, in order. */
export const hashtagsIn = (text: string): string[] => [...text.matchAll(TAG)].map((m) => `#${m[2]}`);

/** A title field: one line, within its own limit. */
export function titleFor(target: RepostTarget, text: string): string | null {
  const rules = REPOST_TARGET_LIMITS[target].caption;
  if (!rules.titleLimit) return null;
  const line = text.replace(TAG, '$1').split('\n')[0]?.replace(/\s+/g, ' ').trim() ?? '';
  return cutTo({ ...rules, count: 'utf16' }, line, rules.titleLimit);
}

export interface RepostTextParts {
  hook: string;
  body: string;
  /** Best first; only the target's count are placed. */
  hashtags: string[];
  /** "Original by …" with the post's link; kept whole when it fits, before any body text. */
  credit?: string;
}

/** The target's text from the optimiser's parts: hook, body, credit, then the hashtags, all within the rules. */
export function composeRepostText(target: RepostTarget, parts: RepostTextParts): string {
  const rules = REPOST_TARGET_LIMITS[target].caption;
  const gap = rules.blankLines ? '\n\n' : '\n';
  const flatten = (t: string) => (rules.blankLines ? t.replace(/\n{3,}/g, '\n\n') : t.replace(/\n{2,}/g, '\n'));
  const tags = parts.hashtags.slice(0, rules.hashtagLimit);
  const tagLine = tags.join(' ');
  const limit = rules.characterLimit;
  // The credit is never dropped: a long one is cut, but it keeps the room it needs first.
  const credit = parts.credit
    ? cutTo(rules, wellFormed(parts.credit).replace(/\s+/g, ' ').trim(), Math.floor(limit * 0.6))
    : '';
  const tail = [credit, tagLine].filter(Boolean).join(gap);
  // Inline hashtags keep their word (as the optimiser does): only the tag line carries tags.
  const text = flatten(wellFormed([parts.hook.trim(), parts.body.trim()].filter(Boolean).join(gap))).replace(
    TAG,
    '$1$2',
  );
  const room = limit - (tail ? lengthFor(rules, tail) + lengthFor(rules, gap) : 0);
  const head = cutTo(rules, text, room);
  let out = [head, tail].filter(Boolean).join(gap);
  // Bytes or a tiny limit can still overflow: drop hashtags, then cut what is left.
  if (!fitsRules(rules, out)) out = [head, credit].filter(Boolean).join(gap);
  if (!fitsRules(rules, out)) out = cutTo(rules, out, limit);
  return out;
}

/** The creator's edited text held to the rules: hashtags past the count taken out, then cut to length. */
export function fitEditedText(target: RepostTarget, text: string): string {
  const rules = REPOST_TARGET_LIMITS[target].caption;
  let n = 0;
  let out = wellFormed(text).replace(TAG, (whole, lead: string) => (++n > rules.hashtagLimit ? lead : whole));
  out = rules.blankLines ? out.replace(/\n{3,}/g, '\n\n') : out.replace(/\n{2,}/g, '\n');
  out = out.replace(/[ \t]+\n/g, '\n').trim();
  return fitsRules(rules, out) ? out : cutTo(rules, out, rules.characterLimit);
}

/** The credit line of someone else's post. */
export const creditLine = (author: string, link: string) =>
  `Original by ${author.replace(/\s+/g, ' ').trim().slice(0, 80) || 'its author'}: ${link}`;

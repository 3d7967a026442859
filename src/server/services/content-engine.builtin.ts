// The built-in caption optimiser: keeps the creator's words (and language), puts the first
// sentence as the hook in front of the platform's "more" fold, places hashtags within the
// platform's count and never exceeds its character limit (PLATFORM_LIMITS).
import type { ContentPlatform, PlatformOptimization } from '../../shared/contracts/content.js';
import { PLATFORM_LIMITS } from '../../shared/platform-limits.js';
import { HASHTAG_TITLE_MAX } from '../../shared/contracts/hashtags.js';
import type { NlpAdapter } from '../adapters/nlp/wink.adapter.js';
import type { BuiltinHashtagEngine } from './hashtag-engine.builtin.js';
import { cleanHashtags, stripMarkup, truncateAtWord } from './hashtag-text.js';
import { POSTING_TIMES, postingTimesTip } from './posting-times.js';

export interface PreparedContent {
  hook: string;
  body: string;
  /** Hashtags the creator wrote, in order. */
  userTags: string[];
  /** Hashtag suggestions for the text from the built-in hashtag engine (best first). */
  suggestedTags: string[];
}

/** How far into the first paragraph the opening sentence is looked for. */
const HOOK_SCAN = 1000;
const HASHTAG = /(^|[^\p{L}\p{N}_&])#([\p{L}\p{M}\p{N}_]+)/gu;

export function createBuiltinContentEngine(deps: { nlp: NlpAdapter; hashtags: BuiltinHashtagEngine }) {
  function prepare(content: string): PreparedContent {
    const text = stripMarkup(content);
    const userTags = cleanHashtags([...text.matchAll(HASHTAG)].map((m) => m[2]));
    // A trailing block of hashtags is dropped; inline ones keep their word ('love #pasta' -> 'love pasta').
    const words = dropTrailingTags(text)
      .replace(HASHTAG, '$1$2')
      .replace(/[ \t]+/g, ' ')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    const firstPara = words.split('\n')[0] ?? '';
    // The hook is looked for in the paragraph's first HOOK_SCAN characters only: the work stays
    // bounded whatever the length (issue 34), and a longer hook is told to be cut anyway.
    const scanned = firstPara.slice(0, HOOK_SCAN);
    let first = (deps.nlp.sentences(scanned)[0] ?? scanned).trim();
    if (firstPara.length > HOOK_SCAN && first === scanned.trim())
      first = truncateAtWord(first, HOOK_SCAN).replace(/…$/, '');
    const hook = first;
    const body = words.slice(words.indexOf(first) + first.length).trim();
    const title = hook || words.slice(0, 200);
    // A title's worth of the hook and the first 2,000 characters say enough about the topic.
    const suggestion = deps.hashtags.generate(
      {
        videoTitle: title.slice(0, HASHTAG_TITLE_MAX) || 'video',
        videoDescription: body.slice(0, 2000) || undefined,
      },
      null,
    );
    return { hook, body, userTags, suggestedTags: suggestion.mixed.concat(suggestion.niche) };
  }

  return {
    prepare,
    forPlatform,
    optimize(content: string, platforms: ContentPlatform[]): PlatformOptimization[] {
      const p = prepare(content);
      return platforms.map((platform) => forPlatform(platform, p));
    },
  };
}
export type BuiltinContentEngine = ReturnType<typeof createBuiltinContentEngine>;

/** One platform's caption from a prepared text: pure, so it runs wherever the answer is put together. */
export function forPlatform(
  platform: ContentPlatform,
  p: PreparedContent,
  extraTips: string[] = [],
): PlatformOptimization {
  const limits = PLATFORM_LIMITS[platform];
  const hashtags = cleanHashtags([...p.userTags, ...p.suggestedTags], limits.hashtagLimit);
  let hook = p.hook;
  let body = p.body;
  const tips: string[] = [];
  // A long opening sentence: lead with its first clause when that fits before the fold.
  if (hook.length > limits.visibleFold) {
    const clause = /^(.{12,}?[,;:–—])\s+(.+)$/su.exec(hook);
    if (clause && clause[1].length <= limits.visibleFold) {
      hook = clause[1].replace(/[,;:]$/, '');
      body = `${clause[2].charAt(0).toUpperCase()}${clause[2].slice(1)}${body ? ` ${body}` : ''}`;
    } else {
      tips.push(
        `Your opening sentence is ${hook.length} characters, but only about ${limits.visibleFold} ` +
          `show before "more" on ${limits.label}: shorten it so the whole hook is visible.`,
      );
    }
  }
  const tagLine = hashtags.join(' ');
  const room = limits.characterLimit - (tagLine ? tagLine.length + 2 : 0);
  let text = body ? `${hook}\n\n${body}` : hook;
  let shortened = false;
  if (text.length > room) {
    text = truncateAtWord(text, room);
    shortened = true;
  }
  const optimizedCaption = tagLine ? `${text}\n\n${tagLine}` : text;

  tips.unshift(
    `The first line is your hook: about ${limits.visibleFold} characters show before "more" on ${limits.label}.`,
  );
  tips.push(
    shortened
      ? `Your text was longer than ${limits.label}'s ` +
          `${limits.characterLimit.toLocaleString('en-US')} characters, so the end was cut: check the last sentence.`
      : `${optimizedCaption.length.toLocaleString('en-US')} of ${limits.characterLimit.toLocaleString('en-US')} characters used.`,
  );
  tips.push(hashtagTip(platform, hashtags.length));
  tips.push(...PLATFORM_TIPS[platform], ...extraTips);
  tips.push(postingTimesTip(platform, limits.label));
  tips.push('This caption is a suggestion: read it through before you post.');
  return {
    platform,
    optimizedCaption,
    hashtags,
    tips,
    bestPostingTimes: [...POSTING_TIMES[platform].times],
    characterLimit: limits.characterLimit,
  };
}

const TAG_BODY = /^[\p{L}\p{M}\p{N}_]+$/u;

/**
 * The text without its closing block of hashtags ('Love it #pasta #food' -> 'Love it'). Read word
 * by word from the end, so it takes linear time (a regex for it backtracked: 0.2 s on '#a ' x 3,333).
 */
export function dropTrailingTags(text: string): string {
  const parts = text.split(/(\s+)/);
  while (parts.length) {
    const last = parts[parts.length - 1];
    if (last.trim() === '') {
      parts.pop();
      continue;
    }
    // 'love#pasta#food' -> ['love', 'pasta', 'food']: every piece after a '#' that is a tag body goes.
    const pieces = last.split('#');
    let k = pieces.length;
    while (k > 1 && TAG_BODY.test(pieces[k - 1])) k--;
    if (k === pieces.length) break;
    const kept = pieces.slice(0, k).join('#');
    if (kept) {
      parts[parts.length - 1] = kept;
      break;
    }
    parts.pop();
  }
  return parts.join('');
}

function hashtagTip(platform: ContentPlatform, placed: number): string {
  const { label, hashtagLimit } = PLATFORM_LIMITS[platform];
  if (platform === 'tiktok' || platform === 'instagram') {
    return `TikTok and Instagram now allow ${hashtagLimit} hashtags per post: we placed ${placed} at the end.`;
  }
  if (platform === 'youtube') {
    return (
      `YouTube shows the first ${hashtagLimit} hashtags above the title, and too many (over 15) ` +
      `can get them all ignored: we placed ${placed}.`
    );
  }
  return `Keep ${label} to about ${hashtagLimit} hashtags: we placed ${placed}.`;
}

const PLATFORM_TIPS: Record<ContentPlatform, string[]> = {
  tiktok: ['Say your main keyword in the first line: TikTok search reads captions.'],
  instagram: ['End with a question to invite comments.'],
  youtube: ["Use the first line as the Short's title: 100 characters at most, about 40 show in the Shorts feed."],
  linkedin: ['Leave a blank line between short paragraphs: long blocks are hard to read in the feed.'],
};

// The built-in hashtag engine: offline, deterministic, well under a millisecond a call. Niche tags
// come from the title's own words and the lexicon; "trending" comes only from hashtags the product
// has actually seen (with their counts), never from invented figures.
import { MIXED_HASHTAG_COUNT, PLATFORM_LIMITS } from '../../shared/platform-limits.js';
import type { NlpAdapter } from '../adapters/nlp/wink.adapter.js';
import { GENERAL_NICHE_ID, type LexiconNiche } from '../lexicon/hashtags/index.js';
import type { ObservedSnapshot, ObservedTag } from '../db/repositories/hashtag-observations.repository.js';
import { analyze, isLowValue, type Analysis } from './keywords.js';
import { cleanHashtags, stripMarkup, toHashtag } from './hashtag-text.js';

export const NICHE_TAGS = 10;
export const TRENDING_TAGS = 8;
const HALF_LIFE_DAYS = 7;

/** What the engines read from a request (validated and trimmed by the contract). */
export interface HashtagInput {
  videoTitle: string;
  videoDescription?: string;
  niche?: string;
}

export interface HashtagSuggestion {
  trending: string[];
  niche: string[];
  mixed: string[];
  tips: string[];
}

export interface BuiltinHashtagEngine {
  analyze(input: HashtagInput): Analysis;
  generate(input: HashtagInput, observed: ObservedSnapshot | null, analysis?: Analysis): HashtagSuggestion;
}

export function createBuiltinHashtagEngine(deps: {
  nlp: NlpAdapter;
  lexicon: readonly LexiconNiche[];
}): BuiltinHashtagEngine {
  const found = deps.lexicon.find((n) => n.id === GENERAL_NICHE_ID);
  if (!found) throw new Error(`the lexicon has no "${GENERAL_NICHE_ID}" niche`);
  const general = found;

  // Tags that count as "related" to a niche for the trending card, built once per niche.
  const relatedByNiche = new Map<string, Set<string>>();
  function relatedTags(niche: LexiconNiche): Set<string> {
    let set = relatedByNiche.get(niche.id);
    if (!set) {
      set = new Set([...niche.keywords, ...niche.broad, ...niche.community, ...general.broad]);
      relatedByNiche.set(niche.id, set);
    }
    return set;
  }

  function analyzeInput(input: HashtagInput): Analysis {
    return analyze(deps.nlp, deps.lexicon, {
      title: stripMarkup(input.videoTitle),
      description: input.videoDescription ? stripMarkup(input.videoDescription) : undefined,
      niche: input.niche ? stripMarkup(input.niche) : undefined,
    });
  }

  function generate(
    input: HashtagInput,
    observed: ObservedSnapshot | null,
    analysis = analyzeInput(input),
  ): HashtagSuggestion {
    const { keywords, phrases, userTags, niche } = analysis;
    const words = keywords.filter((k) => k.score >= 1).map((k) => k.word);
    const nouns = keywords.filter((k) => k.score >= 1 && k.pos !== 'VERB' && !isLowValue(k.word)).map((k) => k.word);
    const namedNiche = input.niche ? toHashtag(stripMarkup(input.niche)) : null;

    // Niche card: the creator's own tags, then tags built from the title, then community tags of the niche.
    const relatedCommunity = [...niche.community].sort((a, b) => overlap(b, words) - overlap(a, words));
    const niches = cleanHashtags(
      [
        ...userTags,
        ...phrases.slice(0, 3),
        ...nouns.slice(0, 3),
        ...(namedNiche ? [namedNiche] : []),
        ...nouns.slice(3, 5),
        ...relatedCommunity,
      ],
      NICHE_TAGS,
    );

    // Trending card: observed tags that relate to this video, ranked by videos and recency.
    const related = relatedTags(niche);
    const now = observed?.takenAt.getTime() ?? 0;
    const relevant = (observed?.tags ?? [])
      .filter((t) => t.videos > 0 && isRelevant(t, words, phrases, related))
      .map((t) => ({ t, score: t.videos * 0.5 ** ((now - t.lastSeen.getTime()) / 86_400_000 / HALF_LIFE_DAYS) }))
      .sort((a, b) => b.score - a.score)
      .map((x) => x.t);
    const observedTrending = cleanHashtags(
      relevant.map((t) => t.tag),
      TRENDING_TAGS,
    );
    const fill =
      observedTrending.length < 5
        ? cleanHashtags([...niche.broad, ...(niche === general ? [] : general.broad.slice(0, 2))])
        : [];
    const trending = cleanHashtags([...observedTrending, ...fill], TRENDING_TAGS);

    // Mixed: one reach tag, the two most specific tags, one community tag, one more reach or niche tag.
    const community = cleanHashtags(relatedCommunity).filter((t) => !niches.slice(0, 3).includes(t));
    const mixed = cleanHashtags(
      [trending[0], niches[0], niches[1], community[0], trending[1], niches[2], ...niches, ...trending].filter(Boolean),
      MIXED_HASHTAG_COUNT,
    );

    const filled = trending.length > observedTrending.length;
    return { trending, niche: niches, mixed, tips: tipsFor(analysis, observed, observedTrending, relevant, filled) };
  }

  return { analyze: analyzeInput, generate };
}

function overlap(tag: string, words: string[]): number {
  return words.reduce((n, w) => n + (w.length >= 3 && tag.includes(w) ? 1 : 0), 0);
}

function isRelevant(t: ObservedTag, words: string[], phrases: string[], related: Set<string>): boolean {
  if (related.has(t.tag) || phrases.includes(t.tag)) return true;
  return words.some((w) => w.length >= 4 && (t.tag.includes(w) || (t.tag.length >= 4 && w.includes(t.tag))));
}

function tipsFor(
  a: Analysis,
  observed: ObservedSnapshot | null,
  observedTrending: string[],
  relevant: ObservedTag[],
  filled: boolean,
): string[] {
  const tips: string[] = [];
  const tiktok = PLATFORM_LIMITS.tiktok.hashtagLimit;
  tips.push(
    `TikTok and Instagram now allow ${tiktok} hashtags per post: use the ` +
      `${MIXED_HASHTAG_COUNT}-tag Mixed Strategy set as it is, not a long list.`,
  );
  if (a.keywords.length === 0) {
    tips.push('We could not find words in your title: add a few words about the video for more specific hashtags.');
  }
  if (observed && observedTrending.length > 0) {
    const top = relevant[0];
    tips.push(
      `Trending: ${observedTrending.length} of these tags were seen on videos fetched through this ` +
        `product in the last ${observed.windowDays} days ` +
        `(${observed.videos} videos looked at; #${top.tag} on ${top.videos}).` +
        (filled ? ` The others are widely used ${a.niche.label} tags.` : ''),
    );
  } else if (observed && observed.videos > 0) {
    tips.push(
      `Trending: none of the hashtags seen on the ${observed.videos} videos fetched through this ` +
        `product in the last ${observed.windowDays} days match this topic yet, so these are widely ` +
        `used ${a.niche.label} tags, not measured trends.`,
    );
  } else {
    tips.push(
      `Trending: no hashtag data collected yet, so these are widely used ${a.niche.label} tags, not measured trends.`,
    );
  }
  tips.push(
    'Niche tags aim at smaller communities where a new video can stand out; the first ones come from your own title.',
  );
  tips.push(
    `YouTube Shorts shows the first ${PLATFORM_LIMITS.youtube.hashtagLimit} hashtags above the title: put your most specific tag first.`,
  );
  tips.push(
    'Say your main keyword in the caption and on screen too: TikTok search reads captions and text, not only hashtags.',
  );
  tips.push('These are suggestions: keep only the tags that truly describe your video.');
  return tips;
}

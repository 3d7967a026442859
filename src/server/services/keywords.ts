// Keyword and phrase extraction plus niche detection for the built-in engines. Pure rules over
// the NLP adapter's tokens and the lexicon data; deterministic for a given input.
import type { NlpAdapter, NlpToken } from '../adapters/nlp/wink.adapter.js';
import { GENERAL_NICHE_ID, type LexiconNiche } from '../lexicon/hashtags/index.js';
import { toHashtag } from './hashtag-text.js';

export interface Keyword {
  word: string;
  lemma: string;
  score: number;
  /** Part of speech where first seen: verbs make poor tags on their own. */
  pos: string;
}

export interface Analysis {
  /** Content words by importance (title words first), unique by lemma. */
  keywords: Keyword[];
  /** Adjacent content words joined, e.g. 'garlicbutter', 'pastarecipe', best first. */
  phrases: string[];
  /** Hashtags the creator already wrote. */
  userTags: string[];
  /** The lexicon niche that fits best ('general' when none does). */
  niche: LexiconNiche;
  /** True when the creator named the niche or the words clearly point at one. */
  nicheConfident: boolean;
}

// Words that make poor tags on their own (still fine inside a phrase tag such as #easyrecipes).
const LOW_VALUE = new Set(
  (
    'easy best new good great video videos today part thing things way time times minute minutes hour hours year years ' +
    'really make makes making get got go going try tried trying full quick busy simple first top ultimate amazing one two ' +
    'three day days week weeks everything something nothing anything people guy guys lot lots little big small every ' +
    'much many more most last next watch wait need want know like love see look looks let lets using use used ' +
    'vs via ever never still even also just only well back home official episode pt ft feat pro max plus mini min ' +
    'mins sec secs hr hrs month months'
  ).split(' '),
);
/** Words that make poor hashtags on their own ('min', 'easy', 'video'). */
export const isLowValue = (word: string) => LOW_VALUE.has(word);

// Function words of other languages the English model does not know.
const FOREIGN_STOP = new Set(
  (
    'de la el los las en y con para por del al un una le les des du et au aux pour avec une der die das und mit für ein eine ' +
    'il di che e o a em do da dos das com para um uma na no nos hoy muy es est ist sehr'
  ).split(' '),
);
const CONTENT_POS = new Set(['NOUN', 'PROPN', 'ADJ', 'VERB', 'X']);
const POS_WEIGHT: Record<string, number> = { NOUN: 3, PROPN: 3, X: 2.5, ADJ: 1.5, VERB: 1 };

function isContent(t: NlpToken): boolean {
  // The English model types words of other scripts (Cyrillic, CJK...) as 'unk' with POS 'X'.
  const word = t.type === 'word' || (t.type === 'unk' && /\p{L}/u.test(t.normal));
  if (!word || t.stop || !CONTENT_POS.has(t.pos)) return false;
  if (FOREIGN_STOP.has(t.normal)) return false;
  // Two-character words are common in CJK scripts; in Latin ones they are mostly function words.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is Latin script (U+0000 to U+024F)
  const minLength = /[^\u0000-\u024F]/u.test(t.normal) ? 2 : 3;
  return t.normal.length >= minLength || /\d/.test(t.normal);
}

function tagBody(word: string): string | null {
  const tag = toHashtag(word);
  return tag ? tag.slice(1) : null;
}

export function analyze(
  nlp: NlpAdapter,
  lexicon: readonly LexiconNiche[],
  input: { title: string; description?: string; niche?: string },
): Analysis {
  const scores = new Map<string, Keyword>();
  const phraseScores = new Map<string, number>();
  const userTags: string[] = [];

  const addText = (text: string, weight: number) => {
    const tokens = nlp.tokens(text);
    let run: Array<{ body: string; w: number; pos: string }> = [];
    const flush = () => {
      // Phrases: every 2- and 3-word window of a run of content words ending in a noun.
      // Three-word tags only from the start of a run ('garlicbutterpasta'); pairs ending in the
      // run's head noun ('pastarecipe', 'hiitworkout') rank above the others.
      for (let n = 3; n >= 2; n--) {
        for (let i = 0; i + n <= run.length; i++) {
          if (n === 3 && i > 0) continue;
          const part = run.slice(i, i + n);
          if (!/NOUN|PROPN|X/.test(part[n - 1].pos)) continue;
          const body = part.map((p) => p.body).join('');
          if (body.length > 28) continue;
          const head = n === 2 && i + n === run.length ? 1.3 : 1;
          const s = part.reduce((a, p) => a + p.w, 0) * (n === 2 ? 1 : 0.7) * head * weight;
          phraseScores.set(body, (phraseScores.get(body) ?? 0) + s);
        }
      }
      run = [];
    };
    tokens.forEach((t, i) => {
      if (t.type === 'hashtag') {
        const tag = toHashtag(t.normal);
        if (tag) userTags.push(tag);
      }
      const content = isContent(t);
      const body = content ? tagBody(t.normal) : null;
      const prev = tokens[i - 1];
      if (!content || !body || LOW_VALUE.has(t.normal) || t.pos === 'VERB' || (prev && prev.sentence !== t.sentence))
        flush();
      if (!content || !body) return;
      const lemma = tagBody(t.lemma) ?? body;
      // Earlier words in a title carry the topic more often than late ones.
      const w = (POS_WEIGHT[t.pos] ?? 1) * weight * (1 + 0.5 / (1 + i)) * (LOW_VALUE.has(t.normal) ? 0.15 : 1);
      const k = scores.get(lemma);
      if (k) k.score += w;
      else scores.set(lemma, { word: body, lemma, score: w, pos: t.pos });
      if (!LOW_VALUE.has(t.normal) && t.pos !== 'VERB') run.push({ body, w, pos: t.pos });
    });
    flush();
  };

  addText(input.title, 2);
  if (input.description) addText(input.description, 1);

  const keywords = [...scores.values()].sort((a, b) => b.score - a.score);
  const phrases = [...phraseScores.entries()].sort((a, b) => b[1] - a[1]).map(([p]) => p);
  const { niche, confident } = detectNiche(lexicon, keywords, phrases, input.niche);
  return { keywords, phrases, userTags: [...new Set(userTags)], niche, nicheConfident: confident };
}

// Keyword sets built once per lexicon entry, not on every request.
const keywordSets = new WeakMap<LexiconNiche, Set<string>>();
function keywordSet(n: LexiconNiche): Set<string> {
  let set = keywordSets.get(n);
  if (!set) {
    set = new Set(n.keywords);
    keywordSets.set(n, set);
  }
  return set;
}

function detectNiche(
  lexicon: readonly LexiconNiche[],
  keywords: Keyword[],
  phrases: string[],
  named?: string,
): { niche: LexiconNiche; confident: boolean } {
  const general = lexicon.find((n) => n.id === GENERAL_NICHE_ID);
  if (!general) throw new Error(`the lexicon has no "${GENERAL_NICHE_ID}" niche`);
  const namedWords = named
    ? named
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean)
    : [];
  const namedJoined = namedWords.join('');
  let best = general;
  let bestScore = 0;
  for (const n of lexicon) {
    if (n.id === GENERAL_NICHE_ID) continue;
    let score = 0;
    // A niche the creator typed wins over anything guessed from the words.
    if (namedWords.length && (n.aliases.includes(namedJoined) || namedWords.some((w) => n.aliases.includes(w))))
      score += 100;
    const kw = keywordSet(n);
    for (const k of keywords) if (kw.has(k.lemma) || kw.has(k.word)) score += k.score;
    for (const p of phrases.slice(0, 5)) if (n.community.includes(p) || n.broad.includes(p)) score += 2;
    if (score > bestScore) {
      best = n;
      bestScore = score;
    }
  }
  return bestScore >= 1.5 ? { niche: best, confident: bestScore >= 3 } : { niche: general, confident: false };
}

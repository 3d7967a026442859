// The one place that talks to wink-nlp: tokens with part of speech and lemma, and sentences.
// The English "lite" model loads in ~150 ms, so it is loaded once, on first use, and shared.
// wink's tokenizer backtracks on long runs without spaces that hold punctuation ('http://' x 1,428:
// 89 s; issue 34), so text reaches it through `nlpSafeText` first (decision 0041).
import { createRequire } from 'node:module';
import type winkNLPType from 'wink-nlp';
import type { ItemSentence, ItemToken } from 'wink-nlp';

// Required when an adapter is made, not when the server loads: the main thread of a server with
// text worker threads never makes one, and the model costs a few hundred ms to load (decision 0075).
const load = createRequire(import.meta.url);

export interface NlpToken {
  /** Lower-cased text as written ('#feta' keeps its '#'). */
  normal: string;
  lemma: string;
  /** Universal POS tag: NOUN, PROPN, ADJ, VERB, NUM, ... */
  pos: string;
  /** wink token type: word, number, hashtag, emoji, punctuation, ... */
  type: string;
  stop: boolean;
  /** Index of the sentence the token belongs to. */
  sentence: number;
}

export interface NlpAdapter {
  tokens(text: string): NlpToken[];
  sentences(text: string): string[];
}

/** Runs without spaces longer than this are no words: a link, or punctuation, emoji and letters glued together. */
export const NLP_MAX_RUN = 40;
const UNICODE_SPACES = /[\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]/g;
const LONG_RUN = new RegExp(`\\S{${NLP_MAX_RUN + 1},}`, 'g');
const NOT_WORD_CHAR = /[^\p{L}\p{M}\p{N}]/gu;
const blank = (s: string) => ' '.repeat(s.length);

/**
 * The text wink reads, of the same length (so offsets still point into the original): Unicode
 * spaces become plain ones, a long run that is a link becomes spaces, and in any other long run
 * everything but letters, marks and digits does (so a CJK sentence keeps its words). Runs left are
 * letters only, which wink reads in linear time.
 */
export function nlpSafeText(text: string): string {
  return text
    .replace(UNICODE_SPACES, ' ')
    .replace(LONG_RUN, (run) => (/:\/\/|^www\./i.test(run) ? blank(run) : run.replace(NOT_WORD_CHAR, blank)));
}

let shared: NlpAdapter | null = null;

export function createWinkAdapter(): NlpAdapter {
  if (shared) return shared;
  // Only sentence boundaries and POS: NER, negation and sentiment are not needed and cost time.
  const winkNLP = load('wink-nlp') as typeof winkNLPType;
  const nlp = winkNLP(load('wink-eng-lite-web-model'), ['sbd', 'pos']);
  const its = nlp.its;
  shared = {
    tokens(text) {
      const doc = nlp.readDoc(nlpSafeText(text));
      const out: NlpToken[] = [];
      doc.sentences().each((sentence: ItemSentence, si: number) => {
        sentence.tokens().each((t: ItemToken) => {
          out.push({
            normal: String(t.out(its.normal)),
            // wink's typings declare lemma with a different signature; at run time it is a normal its-function.
            lemma: String(t.out(its.lemma as unknown as typeof its.normal)),
            pos: String(t.out(its.pos)),
            type: String(t.out(its.type)),
            stop: Boolean(t.out(its.stopWordFlag)),
            sentence: si,
          });
        });
      });
      return out;
    },
    /** The sentences of `text` as written (cut where wink found the boundaries in the safe text). */
    sentences(text) {
      const safe = nlpSafeText(text);
      const out: string[] = [];
      let at = 0;
      for (const sentence of nlp.readDoc(safe).sentences().out() as string[]) {
        const start = safe.indexOf(sentence, at);
        if (start < 0) break;
        at = start + sentence.length;
        const original = text.slice(start, at).trim();
        if (original) out.push(original);
      }
      return out;
    },
  };
  return shared;
}

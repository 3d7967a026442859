// The one place that talks to wink-nlp: tokens with part of speech and lemma, and sentences.
// The English "lite" model loads in ~150 ms, so it is loaded once, on first use, and shared.
import winkNLP, { type ItemSentence, type ItemToken } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

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

let shared: NlpAdapter | null = null;

export function createWinkAdapter(): NlpAdapter {
  if (shared) return shared;
  // Only sentence boundaries and POS: NER, negation and sentiment are not needed and cost time.
  const nlp = winkNLP(model, ['sbd', 'pos']);
  const its = nlp.its;
  shared = {
    tokens(text) {
      const doc = nlp.readDoc(text);
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
    sentences(text) {
      return nlp.readDoc(text).sentences().out() as string[];
    },
  };
  return shared;
}

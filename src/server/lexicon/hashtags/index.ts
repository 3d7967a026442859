// The hashtag lexicon by niche: hand-kept data files (not under a folder named data/, which git ignores), bundled
// into the server at build time.
// `keywords` are words (lemmas) that point at the niche, `broad` are high-reach tags of the niche,
// `community` smaller community tags. Tags are stored without '#'.
import beauty from './beauty.json';
import comedy from './comedy.json';
import cooking from './cooking.json';
import dance from './dance.json';
import education from './education.json';
import fashion from './fashion.json';
import finance from './finance.json';
import fitness from './fitness.json';
import gaming from './gaming.json';
import general from './general.json';
import lifestyle from './lifestyle.json';
import music from './music.json';
import pets from './pets.json';
import tech from './tech.json';
import travel from './travel.json';

export interface LexiconNiche {
  id: string;
  label: string;
  aliases: string[];
  keywords: string[];
  broad: string[];
  community: string[];
}

export const HASHTAG_LEXICON: LexiconNiche[] = [
  cooking,
  fitness,
  gaming,
  beauty,
  travel,
  finance,
  fashion,
  tech,
  education,
  comedy,
  pets,
  music,
  dance,
  lifestyle,
  general,
];

export const GENERAL_NICHE_ID = 'general';

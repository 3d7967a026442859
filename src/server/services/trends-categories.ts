// The documented lexicon that puts hashtags, videos and creators into the ten 'Trend categories' (decision 0092),
// and the keyword rule that puts news items into the five news categories. No source gives these
// categories, so they are assigned by these rules only (docs/decisions/0702-trend-categories.md).
import type { NewsCategory, TrendCategory } from '../../shared/contracts/trends.js';

/** Checked in this order; the first category with a matching word wins. */
const LEXICON: Array<[TrendCategory, string[]]> = [
  [
    'Pets',
    [
      'pet',
      'pets',
      'dog',
      'dogs',
      'puppy',
      'cat',
      'cats',
      'kitten',
      'dogsoftiktok',
      'catsoftiktok',
      'petsoftiktok',
      'animals',
      'hamster',
      'bunny',
    ],
  ],
  [
    'Dance',
    [
      'dance',
      'dancer',
      'dancing',
      'dancechallenge',
      'choreo',
      'choreography',
      'twerk',
      'ballet',
      'hiphopdance',
      'kpopdance',
    ],
  ],
  [
    'Music',
    [
      'music',
      'song',
      'songs',
      'singer',
      'singing',
      'cover',
      'rap',
      'rapper',
      'kpop',
      'concert',
      'album',
      'guitar',
      'piano',
      'newmusic',
      'originalsound',
      'remix',
      'dj',
    ],
  ],
  [
    'Comedy',
    [
      'comedy',
      'funny',
      'joke',
      'jokes',
      'prank',
      'meme',
      'memes',
      'humor',
      'humour',
      'lol',
      'skit',
      'standup',
      'sketch',
    ],
  ],
  [
    'Food',
    [
      'food',
      'foodie',
      'recipe',
      'recipes',
      'cooking',
      'cook',
      'baking',
      'chef',
      'foodtok',
      'dinner',
      'lunch',
      'breakfast',
      'dessert',
      'coffee',
      'starbucks',
      'frappuccino',
      'snack',
      'pizza',
      'restaurant',
      'mukbang',
      'drink',
    ],
  ],
  [
    'Fashion',
    [
      'fashion',
      'outfit',
      'ootd',
      'style',
      'beauty',
      'makeup',
      'skincare',
      'hair',
      'nails',
      'grwm',
      'fashiontok',
      'streetwear',
      'clothes',
      'sneakers',
      'haul',
    ],
  ],
  [
    'Educational',
    [
      'learn',
      'learnontiktok',
      'education',
      'educational',
      'study',
      'science',
      'history',
      'math',
      'tips',
      'howto',
      'tutorial',
      'lifehack',
      'facts',
      'ai',
      'marketing',
      'marketingtips',
      'business',
      'finance',
      'money',
      'tech',
      'coding',
      'smallbusiness',
    ],
  ],
  [
    'Entertainment',
    [
      'movie',
      'movies',
      'film',
      'tv',
      'series',
      'netflix',
      'anime',
      'celebrity',
      'gaming',
      'game',
      'games',
      'gamer',
      'fortnite',
      'minecraft',
      'roblox',
      'football',
      'nfl',
      'nba',
      'soccer',
      'sports',
      'news',
    ],
  ],
  [
    'Lifestyle',
    [
      'lifestyle',
      'life',
      'vlog',
      'dayinmylife',
      'travel',
      'fitness',
      'gym',
      'workout',
      'health',
      'wellness',
      'home',
      'decor',
      'family',
      'mom',
      'parenting',
      'wedding',
      'selfcare',
      'motivation',
      'summer',
      'cleaning',
      'cleantok',
    ],
  ],
];

/** TikTok One industries (ids from docs/sources.md 'TikTok One hashtags') to the nearest category. */
const INDUSTRY: Record<string, TrendCategory> = {
  '10000000000': 'Educational',
  '11000000000': 'Lifestyle',
  '12000000000': 'Lifestyle',
  '14000000000': 'Fashion',
  '15000000000': 'Educational',
  '17000000000': 'Lifestyle',
  '18000000000': 'Lifestyle',
  '19000000000': 'Pets',
  '21000000000': 'Lifestyle',
  '22000000000': 'Fashion',
  '23000000000': 'Entertainment',
  '25000000000': 'Entertainment',
  '27000000000': 'Food',
  '28000000000': 'Lifestyle',
  '29000000000': 'Lifestyle',
};

const WORDS = new Map<string, TrendCategory>();
for (const [category, words] of LEXICON) for (const w of words) if (!WORDS.has(w)) WORDS.set(w, category);

function normalise(s: string): string {
  return s.toLowerCase().replace(/^#/, '').normalize('NFKC');
}

/** Category of one hashtag: exact lexicon word, else a lexicon word it starts or ends with. */
export function categoryOfTag(tag: string): TrendCategory | null {
  const t = normalise(tag);
  const exact = WORDS.get(t);
  if (exact) return exact;
  for (const [category, words] of LEXICON) {
    // Only words of 4+ letters as parts, so 'ai' or 'dj' don't match inside 'hair' or 'adjust'.
    if (words.some((w) => w.length >= 4 && (t.startsWith(w) || t.endsWith(w)))) return category;
  }
  return null;
}

/** The most common category among tags (ties: lexicon order); falls back to words of the text. */
export function categoryOf(tags: string[], text = '', industryIds: string[] = []): TrendCategory {
  const counts = new Map<TrendCategory, number>();
  for (const tag of tags) {
    const c = categoryOfTag(tag);
    if (c) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  if (counts.size === 0 && text) {
    for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
      const c = word ? WORDS.get(word) : undefined;
      if (c) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
  }
  if (counts.size > 0) {
    const order = LEXICON.map(([c]) => c);
    return [...counts].sort((a, b) => b[1] - a[1] || order.indexOf(a[0]) - order.indexOf(b[0]))[0][0];
  }
  for (const id of industryIds) if (INDUSTRY[id]) return INDUSTRY[id];
  return 'General';
}

/** News rule 'keywords-v1': first matching group in this order, else 'platform'. */
const NEWS_RULES: Array<[NewsCategory, RegExp]> = [
  [
    'music',
    /\b(music|song|songs|sound|sounds|artist|artists|album|label|spotify|billboard|chart|royalt\w*|umg|universal music)\b/i,
  ],
  [
    'creator',
    /\b(creator|creators|influencer\w*|monetis\w*|monetiz\w*|creator fund|creativity program|subscription|live gifts?|followers)\b/i,
  ],
  [
    'business',
    new RegExp(
      String.raw`\b(ad|ads|advertis\w*|brand|brands|marketer\w*|marketing|shop|commerce|e-commerce|revenue|sales|` +
        String.raw`sellers?|deal|acquisition|investor\w*|valuation|earnings|divest\w*|joint venture)\b`,
      'i',
    ),
  ],
  ['viral', /\b(viral|trend|trends|trending|challenge|meme|memes|hashtag|went viral)\b/i],
];

export function categoriseNews(title: string, summary: string | null): NewsCategory {
  const text = `${title} ${summary ?? ''}`;
  for (const [category, re] of NEWS_RULES) if (re.test(text)) return category;
  return 'platform';
}

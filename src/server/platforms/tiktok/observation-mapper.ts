// Maps TikTok's raw web `itemStruct` (docs/sources.md 'TikTok item fields') to one first-party observation for
// the trends feature; beside item-mapper.ts so every reading of the itemStruct lives in one folder.
// Counts come as numbers in `stats`/`authorStats` and as strings in the *V2 twins; either works.
import type { VideoObservation as Observation } from '../video-model.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown, max = 255): string | null => {
  if (typeof v === 'number' && Number.isFinite(v)) v = String(v);
  return typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : null;
};
const count = (...vs: unknown[]): number | null => {
  for (const v of vs) {
    const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
    if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) return n;
  }
  return null;
};

/** Tags from the description's tagged text (`textExtra` type 1), else `#words` of `desc`. */
export function hashtagsOf(item: Obj): string[] {
  const tags: string[] = [];
  const extra = Array.isArray(item.textExtra) ? item.textExtra : [];
  for (const e of extra) {
    const name = str(obj(e).hashtagName, 100);
    if (name) tags.push(name);
  }
  if (tags.length === 0 && typeof item.desc === 'string') {
    for (const m of item.desc.matchAll(/#([\p{L}\p{N}_]+)/gu)) tags.push(m[1]);
  }
  return [...new Set(tags.map((t) => t.toLowerCase()))].slice(0, 30);
}

/** Returns null when the struct has no usable video id (nothing to record). */
export function observationFromItemStruct(raw: unknown): Observation | null {
  const item = obj(raw);
  const videoId = str(item.id, 32);
  if (!videoId || !/^\d+$/.test(videoId)) return null;
  const author = obj(item.author);
  const authorStats = obj(item.authorStats);
  const authorStatsV2 = obj(item.authorStatsV2);
  const music = obj(item.music);
  const stats = obj(item.stats);
  const statsV2 = obj(item.statsV2);
  return {
    videoId,
    description: typeof item.desc === 'string' ? item.desc.slice(0, 5000) : null,
    author: str(author.uniqueId) ?? str(item.author),
    authorNickname: str(author.nickname),
    authorVerified: typeof author.verified === 'boolean' ? author.verified : null,
    authorFollowers: count(authorStats.followerCount, authorStatsV2.followerCount),
    hashtags: hashtagsOf(item),
    musicId: str(music.id, 64),
    musicTitle: str(music.title, 500),
    musicAuthor: str(music.authorName),
    musicDuration: count(music.duration),
    plays: count(stats.playCount, statsV2.playCount),
    likes: count(stats.diggCount, statsV2.diggCount),
  };
}

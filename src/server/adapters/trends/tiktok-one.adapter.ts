// TikTok One ("CreativeOne") hashtag list: the unsigned POST GetHashtagList call
// (docs/sources.md 'TikTok One hashtags'). Anonymous answers carry about 3 items per view, so the collector asks
// the all-industries view plus each industry view and merges them.
import type { TrendsHttp } from './http.js';
import { dropNul } from '../../lib/nul.js';
import { BROWSER_UA } from './http.js';

export const TIKTOK_ONE_URL = 'https://ads.tiktok.com/CreativeOne/KnowledgeAPI/GetHashtagList';
export const TIKTOK_ONE_HOSTS = ['ads.tiktok.com'];
/** Industry ids (lofe-w/...:options/hashtags_industry.json, as listed in the research note). */
export const TIKTOK_ONE_INDUSTRIES = [
  10000000000, 11000000000, 12000000000, 14000000000, 15000000000, 17000000000, 18000000000, 19000000000, 21000000000,
  22000000000, 23000000000, 25000000000, 27000000000, 28000000000, 29000000000,
];

export interface TikTokOneHashtag {
  id: string;
  name: string;
  industryIds: string[];
  views: number | null;
  posts: number | null;
  rank: number | null;
  curve: Array<{ t: number; v: number }>;
}

export interface TikTokOneResult {
  country: string;
  period: number;
  items: TikTokOneHashtag[];
  /** Views that answered with items, and the reasons the others failed. */
  viewsOk: number;
  failures: string[];
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
/** Several fields arrive as strings ("12345"); 19-digit ids stay strings. */
export function toCount(v: unknown): number | null {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : null;
}
const toId = (v: unknown): string | null => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : null);

/** Parses one answer. Success only with HTTP 200, status code 0 and a non-empty list. */
export function parseHashtagList(status: number, text: string): { items: TikTokOneHashtag[] } | { error: string } {
  if (status !== 200) return { error: `HTTP ${status}` };
  let body: Obj;
  try {
    body = obj(JSON.parse(text, dropNul));
  } catch {
    return { error: 'answer is not JSON' };
  }
  const baseResp = obj(body.BaseResp);
  const code = baseResp.StatusCode ?? body.code;
  const message = String(baseResp.StatusMessage ?? body.msg ?? '');
  if (code !== undefined && Number(code) !== 0) return { error: `status ${String(code)} ${message}`.trim() };
  if (/deprecated/i.test(message)) return { error: `source answered "${message}"` };
  const list = Array.isArray(body.items)
    ? body.items
    : Array.isArray(obj(body.data).items)
      ? (obj(body.data).items as unknown[])
      : [];
  const items: TikTokOneHashtag[] = [];
  for (const raw of list) {
    const it = obj(raw);
    const name = typeof it.hashtagName === 'string' ? it.hashtagName.trim().replace(/^#/, '') : '';
    if (!name) continue;
    const curve = (Array.isArray(it.popularityCurve) ? it.popularityCurve : [])
      .map((p) => ({ t: toCount(obj(p).timestamp), v: toCount(obj(p).value) }))
      .filter((p): p is { t: number; v: number } => p.t !== null && p.v !== null)
      .sort((a, b) => a.t - b.t);
    items.push({
      id: toId(it.hashtagID) ?? name.toLowerCase(),
      name,
      industryIds: (Array.isArray(it.industryIDs) ? it.industryIDs : []).map(toId).filter((x): x is string => !!x),
      views: toCount(it.vv),
      posts: toCount(it.publishCnt),
      rank: toCount(it.rankIndex),
      curve,
    });
  }
  if (items.length === 0)
    return {
      error:
        message && message.toLowerCase() !== 'ok' && message.toLowerCase() !== 'success'
          ? `no items (${message})`
          : 'no items',
    };
  return { items };
}

export function createTikTokOneAdapter(http: TrendsHttp, opts: { timeoutMs?: number } = {}) {
  async function view(country: string, period: number, industryID: number | undefined, signal?: AbortSignal) {
    const body: Record<string, unknown> = { timeRange: period, countryCode: country, page: 1, limit: 20 };
    if (industryID !== undefined) body.industryID = industryID; // must be an int; strings are ignored
    try {
      const res = await http.request(TIKTOK_ONE_URL, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/plain, */*',
          origin: 'https://ads.tiktok.com',
          referer: 'https://ads.tiktok.com/creative/creativeCenter/trends/hashtag',
          'user-agent': BROWSER_UA,
        },
        body: JSON.stringify(body),
        allowHosts: TIKTOK_ONE_HOSTS,
        timeoutMs: opts.timeoutMs ?? 15_000,
        maxBytes: 2 * 1024 * 1024,
        signal,
      });
      return parseHashtagList(res.status, res.text);
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  }

  return {
    /** All-industries view plus each industry view, merged by hashtag id, ordered by posts. */
    async fetchHashtags(country: string, period: number, signal?: AbortSignal): Promise<TikTokOneResult> {
      const merged = new Map<string, TikTokOneHashtag>();
      const failures: string[] = [];
      let viewsOk = 0;
      for (const industry of [undefined, ...TIKTOK_ONE_INDUSTRIES]) {
        if (signal?.aborted) break;
        const r = await view(country, period, industry, signal);
        if ('error' in r) {
          failures.push(r.error);
          // When the all-industries view fails (refused, deprecated, down), the rest would fail alike.
          if (industry === undefined) break;
          continue;
        }
        viewsOk++;
        for (const item of r.items) {
          const prev = merged.get(item.id);
          if (!prev) merged.set(item.id, item);
          else prev.industryIds = [...new Set([...prev.industryIds, ...item.industryIds])];
        }
      }
      const items = [...merged.values()].sort(
        (a, b) =>
          (b.posts ?? -1) - (a.posts ?? -1) || (b.views ?? -1) - (a.views ?? -1) || a.name.localeCompare(b.name),
      );
      return { country, period, items, viewsOk, failures };
    },
  };
}

export type TikTokOneAdapter = ReturnType<typeof createTikTokOneAdapter>;

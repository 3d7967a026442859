// Link cleaning (decision 0092 'Accepted TikTok links') as a pipeline of small pure steps: the server refuses a bad
// link before any request leaves. The client's fields get the same rule as LINK_PATTERN through
// GET /api/platforms (a unit test holds the two together).
//   trim -> parse -> refuse credentials/ports -> strip tracking query -> normalise host -> match

export type TikTokLink =
  | { kind: 'video'; id: string; user: string; url: string } // canonical https://www.tiktok.com/@user/video/<id>
  | { kind: 'short'; code: string; url: string }; // https://vm.tiktok.com/<code>/ etc., resolved by the server

export const MAX_VIDEO_ID_DIGITS = 21;
const SHORT_HOSTS = new Set(['vm.tiktok.com', 'vt.tiktok.com']);
const MAIN_HOSTS = new Set(['tiktok.com', 'www.tiktok.com', 'm.tiktok.com']);

export const trimStep = (input: string): string => input.trim();

export function parseStep(input: string): URL | null {
  if (!/^https?:\/\//i.test(input)) return null;
  try {
    return new URL(input);
  } catch {
    return null;
  }
}

/** `https://www.tiktok.com@evil.com/`, `https://x:y@www.tiktok.com/` and custom ports are refused. */
export const plainStep = (url: URL): URL | null => (url.username || url.password || url.port ? null : url);

/** Tracking query strings (`?is_from_webapp=1&sender_device=pc`, `?_r=1`, `#...`) carry nothing we need. */
export function stripTrackingStep(url: URL): URL {
  const u = new URL(url.href);
  u.search = '';
  u.hash = '';
  return u;
}

/** Lower-case, drop a trailing dot, always https. */
export function normaliseHostStep(url: URL): URL {
  const u = new URL(url.href);
  u.protocol = 'https:';
  u.hostname = u.hostname.toLowerCase().replace(/\.$/, '');
  return u;
}

export function matchStep(url: URL): TikTokLink | null {
  const host = url.hostname;
  const p = url.pathname;
  if (SHORT_HOSTS.has(host)) {
    const m = /^\/([A-Za-z0-9_-]{1,21})\/?$/.exec(p);
    return m ? { kind: 'short', code: m[1], url: `https://${host}/${m[1]}/` } : null;
  }
  if (!MAIN_HOSTS.has(host)) return null;
  const t = /^\/t\/([A-Za-z0-9_-]{1,21})\/?$/.exec(p);
  if (t) return { kind: 'short', code: t[1], url: `https://www.tiktok.com/t/${t[1]}/` };
  const v = new RegExp(`^/@([\\w.-]{0,64})/(?:video|photo)/(\\d{1,${MAX_VIDEO_ID_DIGITS}})/?$`).exec(p);
  if (v) return { kind: 'video', id: v[2], user: v[1], url: canonicalVideoUrl(v[2], v[1]) };
  return null;
}

/** The whole pipeline: a cleaned link, or null when it is not an accepted TikTok link. */
export function parseTikTokLink(input: unknown): TikTokLink | null {
  if (typeof input !== 'string' || input.length > 2048) return null;
  const parsed = parseStep(trimStep(input));
  const plain = parsed && plainStep(parsed);
  return plain ? matchStep(normaliseHostStep(stripTrackingStep(plain))) : null;
}

export const isTikTokLink = (input: unknown): boolean => parseTikTokLink(input) !== null;

/** The pipeline's accepted shapes, over a link reduced by shared/platform-links.ts `linkShape`. */
export const LINK_PATTERN = new RegExp(
  '^https?://(?:(?:www\\.|m\\.)?tiktok\\.com/(?:t/[A-Za-z0-9_-]{1,21}|@[\\w.-]{0,64}/(?:video|photo)/\\d{1,' +
    MAX_VIDEO_ID_DIGITS +
    '})|v[mt]\\.tiktok\\.com/[A-Za-z0-9_-]{1,21})/?$',
);
export const EXAMPLE_LINK = 'https://www.tiktok.com/@user/video/1234567890';

/** Canonical page URL for a video id (photo posts are fetched through /video/ too). */
export const canonicalVideoUrl = (id: string, user = '_'): string =>
  `https://www.tiktok.com/@${user || '_'}/video/${id}`;

/**
 * The first accepted TikTok link inside shared text, as the TikTok app's share sheet sends it
 * ("Check out this video … https://vm.tiktok.com/ZM…/"), or the text itself when it is a link.
 */
export function extractTikTokLink(text: unknown): string | null {
  if (typeof text !== 'string' || text.length > 4096) return null;
  for (const candidate of text.match(/https?:\/\/[^\s"'<>]+/gi) ?? []) {
    const cleaned = candidate.replace(/[),.!?]+$/, '');
    if (isTikTokLink(cleaned)) return cleaned;
  }
  return null;
}

// Link cleaning (decision 0092 'Accepted TikTok links'): the server refuses a bad link before any
// request leaves. The shared `linkShape` does what every platform's links need; `matchStep` knows
// TikTok's shapes. The client's fields get the same rule as LINK_PATTERN through GET /api/platforms
// (a unit test holds the two together).

import { linkShape } from '../../../shared/platform-links.js';

export type TikTokLink =
  | { kind: 'video'; id: string; user: string; url: string } // canonical https://www.tiktok.com/@user/video/<id>
  | { kind: 'short'; code: string; url: string }; // https://vm.tiktok.com/<code>/ etc., resolved by the server

export const MAX_VIDEO_ID_DIGITS = 21;
const SHORT_HOSTS = new Set(['vm.tiktok.com', 'vt.tiktok.com']);
const MAIN_HOSTS = new Set(['tiktok.com', 'www.tiktok.com', 'm.tiktok.com']);

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

/**
 * A cleaned link, or null when it is not an accepted TikTok link: the platform-neutral steps of
 * every platform (shared `linkShape`: trimmed, http(s), no credentials or port, host lower-cased,
 * no tracking query or fragment), then TikTok's own shapes.
 */
export function parseTikTokLink(input: unknown): TikTokLink | null {
  const shape = linkShape(input);
  return shape === null ? null : matchStep(new URL(shape));
}

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

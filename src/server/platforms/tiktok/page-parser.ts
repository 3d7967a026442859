// Reads a TikTok video page: `<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__">` (found by id, any
// attribute order) -> `__DEFAULT_SCOPE__["webapp.video-detail"]` -> status check -> itemStruct.
import { fail, type AppError } from '../../errors.js';
import { errorForStatus, TIKTOK } from './errors.js';
import { dropNul } from '../../lib/nul.js';

// biome-ignore lint/suspicious/noExplicitAny: TikTok's page JSON, unversioned; every read below is checked
type Json = Record<string, any>;

const SCRIPT = /<script\b[^>]*\bid=["']__UNIVERSAL_DATA_FOR_REHYDRATION__["'][^>]*>([\s\S]*?)<\/script>/i;
/** The 2021 Next.js generation (fixture real_2021-09-11_nextjs_pageProps): `props.pageProps` holds the detail. */
const NEXT_SCRIPT = /<script\b[^>]*\bid=["']__NEXT_DATA__["'][^>]*>([\s\S]*?)<\/script>/i;

/** `__NEXT_DATA__.props.pageProps` in the shape of a `__DEFAULT_SCOPE__` (same statusCode/itemInfo fields). */
function nextDataScope(html: string): Json | null {
  const m = NEXT_SCRIPT.exec(html);
  if (!m) return null;
  try {
    const props = JSON.parse(m[1], dropNul)?.props?.pageProps;
    return props && typeof props === 'object' && 'statusCode' in props ? { 'webapp.video-detail': props } : null;
  } catch {
    return null;
  }
}

/** The `__DEFAULT_SCOPE__` object, or null when the page carries no rehydration data. */
export function extractScope(html: string): Json | null {
  const m = SCRIPT.exec(html);
  if (!m) return nextDataScope(html);
  try {
    const data = JSON.parse(m[1], dropNul);
    return data && typeof data === 'object' && data.__DEFAULT_SCOPE__ && typeof data.__DEFAULT_SCOPE__ === 'object'
      ? data.__DEFAULT_SCOPE__
      : null;
  } catch {
    return null;
  }
}

export type PageResult =
  | { ok: true; item: Json; canonical: string | null }
  | { ok: false; error: AppError; canonical: string | null };

/** Classifies a page body into the itemStruct or a typed failure. */
export function readVideoPage(html: string): PageResult {
  const scope = extractScope(html);
  if (!scope) {
    // No data: a bot check ("Please wait...", WAF challenge) or an unexpected page.
    const botCheck = /_wafchallengeid|Please wait\.\.\.|id="wci"/i.test(html);
    return {
      ok: false,
      error: botCheck ? fail('upstream.rate_limited', TIKTOK) : fail('upstream.unavailable', TIKTOK),
      canonical: null,
    };
  }
  const canonical = typeof scope['seo.abtest']?.canonical === 'string' ? scope['seo.abtest'].canonical : null;
  const detail = scope['webapp.video-detail'];
  if (!detail || typeof detail !== 'object')
    return { ok: false, error: fail('upstream.unavailable', TIKTOK), canonical };
  const statusError = errorForStatus(detail.statusCode, detail.statusMsg);
  if (statusError) return { ok: false, error: statusError, canonical };
  const item = detail.itemInfo?.itemStruct;
  if (!item || typeof item !== 'object') return { ok: false, error: fail('video.not_found', TIKTOK), canonical };
  if (!item.video && item.isContentClassified)
    return { ok: false, error: fail('video.age_restricted', TIKTOK), canonical };
  if (item.isContentClassified && !(item.video?.playAddr || item.video?.bitrateInfo?.length)) {
    return { ok: false, error: fail('video.age_restricted', TIKTOK), canonical };
  }
  if (item.privateItem === true && !item.video?.playAddr)
    return { ok: false, error: fail('video.private', TIKTOK), canonical };
  return { ok: true, item, canonical };
}

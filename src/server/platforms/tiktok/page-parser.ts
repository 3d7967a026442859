// Reads a TikTok video page: `<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__">` (found by id, any
// attribute order) -> `__DEFAULT_SCOPE__["webapp.video-detail"]` -> status check -> itemStruct.
import { fail, type AppError } from '../../errors.js';
import { errorForStatus, TIKTOK } from './errors.js';
import { dropNul } from '../../lib/nul.js';

// biome-ignore lint/suspicious/noExplicitAny: TikTok's page JSON, unversioned; every read below is checked
type Json = Record<string, any>;

/**
 * The body of the first `<script ... id="<id>" ...>...</script>`, as the regex
 * /<script\b[^>]*\bid=["']<id>["'][^>]*>([\s\S]*?)<\/script>/i would find it, in one pass: the
 * regex retried from each `<script` and rescanned to the end for each, taking seconds on a page of
 * unclosed `<script ` (issue 42). The starts that share one closing `>` share one tag text; only the
 * first (longest) can hold the id first, so each tag text is read once.
 */
export function scriptById(html: string, id: string): string | null {
  const opens = /<script\b/gi;
  const idAttr = new RegExp(`\\bid=["']${id}["']`, 'i');
  let tagEnd = -1;
  for (let m = opens.exec(html); m; m = opens.exec(html)) {
    if (m.index < tagEnd) continue; // inside the tag text read last time (same closing `>`)
    tagEnd = html.indexOf('>', m.index);
    if (tagEnd < 0) return null; // no `>` after this, so none after any later `<script` either
    if (!idAttr.test(html.slice(m.index + 7, tagEnd))) continue;
    const close = /<\/script>/gi;
    close.lastIndex = tagEnd + 1;
    const end = close.exec(html);
    // With no `</script>` after this tag there is none after any later one: no match at all.
    return end ? html.slice(tagEnd + 1, end.index) : null;
  }
  return null;
}

/**
 * The 2021 Next.js generation (fixture real_2021-09-11_nextjs_pageProps): `__NEXT_DATA__.props.pageProps`
 * in the shape of a `__DEFAULT_SCOPE__` (same statusCode/itemInfo fields). */
function nextDataScope(html: string): Json | null {
  const script = scriptById(html, '__NEXT_DATA__');
  if (script === null) return null;
  try {
    const props = JSON.parse(script, dropNul)?.props?.pageProps;
    return props && typeof props === 'object' && 'statusCode' in props ? { 'webapp.video-detail': props } : null;
  } catch {
    return null;
  }
}

/** The `__DEFAULT_SCOPE__` object, or null when the page carries no rehydration data. */
export function extractScope(html: string): Json | null {
  const script = scriptById(html, '__UNIVERSAL_DATA_FOR_REHYDRATION__');
  if (script === null) return nextDataScope(html);
  try {
    const data = JSON.parse(script, dropNul);
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

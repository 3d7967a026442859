// The TikTok web extractor (docs/sources.md 'TikTok video page'): resolve short links, fetch the video page like a
// browser keeping its cookies, read the rehydration JSON, and open CDN media with the page's
// cookies (`tt_chain_token`) and Referer. All traffic goes through the guarded HTTP client.
import { AppError, fail } from '../../errors.js';
import { CookieJar, type HttpClient, type HttpResponse } from '../../adapters/http/index.js';
import { canonicalVideoUrl, parseTikTokLink } from './link.js';
import { TIKTOK } from './errors.js';
import { upstreamFailure } from '../errors.js';
import { mapItemStruct, usableMediaUrl } from './item-mapper.js';
import type { FetchedVideo, MediaOpenOptions, VideoRef } from '../platform.js';
import { readVideoPage } from './page-parser.js';
import { detectWafChallenge, solveWafChallenge } from './waf-challenge.js';

/** Hosts a TikTok page or short link may live on (and redirect between). */
export const TIKTOK_PAGE_HOSTS = ['www.tiktok.com', 'tiktok.com', 'm.tiktok.com', 'vm.tiktok.com', 'vt.tiktok.com'];
/** Media hosts move over the years (research §13): allow the TikTok/ByteDance CDN domains, not one host. */
export const TIKTOK_MEDIA_HOSTS = [
  '*.tiktok.com',
  '*.tiktokcdn.com',
  '*.tiktokcdn-us.com',
  '*.tiktokcdn-eu.com',
  '*.tiktokv.com',
  '*.tiktokv.us',
  '*.tiktokv.eu',
  '*.ibytedtos.com',
  '*.byteoversea.com',
  '*.muscdn.com',
];

export const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36';
const PAGE_HEADERS = {
  'user-agent': BROWSER_UA,
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  'accept-language': 'en-US,en;q=0.9',
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-site': 'none',
  'upgrade-insecure-requests': '1',
};

/** What opening TikTok media needs: the page's cookies (`tt_chain_token`) and its URL as Referer. */
interface TikTokSession {
  cookies: ReturnType<CookieJar['toJSON']>;
  pageUrl: string;
}

const upstream = upstreamFailure(TIKTOK);

export function createTikTokAdapter(deps: { http: HttpClient }) {
  const { http } = deps;

  /** A cleaned video link, following vm./vt./t/ short links by their redirect only. */
  async function resolveLink(input: string, signal?: AbortSignal): Promise<VideoRef> {
    let link = parseTikTokLink(input);
    for (let hops = 0; link && hops < 5; hops++) {
      if (link.kind === 'video') return { platform: 'tiktok', id: link.id, url: link.url };
      let res: HttpResponse;
      try {
        res = await http.request(link.url, {
          allow: TIKTOK_PAGE_HOSTS,
          maxRedirects: 0,
          headers: { 'user-agent': BROWSER_UA, accept: 'text/html' },
          signal,
        });
      } catch (err) {
        throw upstream(err);
      }
      res.body.destroy(); // the redirect is all we need; never read the body
      const location = res.header('location');
      if (res.status === 429) throw fail('upstream.rate_limited', TIKTOK);
      if (res.status >= 500) throw fail('upstream.unavailable', TIKTOK);
      if (res.status < 300 || res.status >= 400 || !location)
        throw fail('link.unsupported', { variant: 'short_link', ...TIKTOK });
      const next = new URL(location, link.url).href;
      const legacy = /^https:\/\/m\.tiktok\.com\/v\/(\d{1,21})\.html/.exec(next);
      link = legacy
        ? { kind: 'video', id: legacy[1], user: '_', url: canonicalVideoUrl(legacy[1]) }
        : parseTikTokLink(next);
      if (!link) throw fail('link.unsupported', { variant: 'short_link', ...TIKTOK });
    }
    throw link
      ? fail('link.unsupported', { variant: 'short_link', ...TIKTOK })
      : fail('link.unsupported', { variant: 'provide', platforms: 'TikTok' });
  }

  async function fetchPage(url: string, jar: CookieJar, signal?: AbortSignal) {
    let res: HttpResponse;
    try {
      res = await http.request(url, { allow: TIKTOK_PAGE_HOSTS, jar, headers: PAGE_HEADERS, maxRedirects: 5, signal });
    } catch (err) {
      throw upstream(err);
    }
    if (new URL(res.url).pathname.replace(/\/$/, '') === '/login') {
      res.body.destroy();
      throw fail('video.login_required', TIKTOK);
    }
    if (res.status === 429) {
      res.body.destroy();
      throw fail('upstream.rate_limited', TIKTOK);
    }
    if (res.status === 404 || res.status === 410) {
      res.body.destroy();
      throw fail('video.not_found', TIKTOK);
    }
    if (res.status !== 200) {
      res.body.destroy();
      throw fail('upstream.unavailable', TIKTOK);
    }
    try {
      return { html: await res.text(), finalUrl: res.url };
    } catch (err) {
      throw upstream(err);
    }
  }

  /** Fetches and parses the video page with a fresh cookie jar. */
  async function fetchVideo(ref: VideoRef, signal?: AbortSignal): Promise<FetchedVideo> {
    const jar = new CookieJar();
    let page = await fetchPage(ref.url, jar, signal);
    let result = readVideoPage(page.html);
    const waf = result.ok ? null : detectWafChallenge(page.html);
    if (waf) {
      const answer = await solveWafChallenge(waf);
      if (answer) {
        jar.set('https://www.tiktok.com/', `${waf.cookieName}=${answer}; Domain=.tiktok.com; Path=/`);
        if (waf.extraCookie)
          jar.set(
            'https://www.tiktok.com/',
            `${waf.extraCookie.name}=${waf.extraCookie.value}; Domain=.tiktok.com; Path=/`,
          );
        page = await fetchPage(ref.url, jar, signal);
        result = readVideoPage(page.html);
        // One-shot cookies (the real script sets Max-Age=1): never send them again.
        jar.set('https://www.tiktok.com/', `${waf.cookieName}=; Domain=.tiktok.com; Path=/; Max-Age=0`);
        if (waf.extraCookie)
          jar.set('https://www.tiktok.com/', `${waf.extraCookie.name}=; Domain=.tiktok.com; Path=/; Max-Age=0`);
      }
    }
    // gallery-dl: a page without video-detail may still name the canonical URL that has it.
    if (
      !result.ok &&
      result.error.code === 'upstream.unavailable' &&
      result.canonical &&
      result.canonical !== ref.url
    ) {
      const canonical = parseTikTokLink(result.canonical);
      if (canonical?.kind === 'video' && canonical.id === ref.id) {
        page = await fetchPage(canonical.url, jar, signal);
        result = readVideoPage(page.html);
      }
    }
    if (!result.ok) throw result.error;
    const session: TikTokSession = { cookies: jar.toJSON(), pageUrl: page.finalUrl };
    return { ref, raw: result.item, video: mapItemStruct(result.item, ref.id), session };
  }

  /**
   * Opens a CDN file with the page's cookies and Referer, trying each URL in turn (v16, then the
   * v19 mirror). Returns the streaming response (200 or 206); the caller owns its body.
   */
  async function openMedia(urls: string[], video: FetchedVideo, opts: MediaOpenOptions = {}): Promise<HttpResponse> {
    const session = video.session as TikTokSession;
    const jar = CookieJar.from(session.cookies);
    let lastStatus = 0;
    for (const url of urls.filter(usableMediaUrl)) {
      let res: HttpResponse;
      try {
        res = await http.request(url, {
          allow: TIKTOK_MEDIA_HOSTS,
          jar,
          signal: opts.signal,
          maxRedirects: 3,
          maxBytes: opts.maxBytes,
          bulk: opts.bulk,
          headers: {
            'user-agent': BROWSER_UA,
            referer: session.pageUrl,
            accept: '*/*',
            ...(opts.range ? { range: opts.range } : {}),
          },
        });
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        if (err instanceof AppError && err.code === 'upstream.blocked') throw err;
        continue; // a mirror may still answer
      }
      if (res.status === 200 || res.status === 206) return res;
      lastStatus = res.status;
      res.body.destroy();
      if (res.status === 416) throw fail('request.range');
    }
    if (lastStatus === 429) throw fail('upstream.rate_limited', TIKTOK);
    if (lastStatus === 404 || lastStatus === 410) throw fail('video.not_found', TIKTOK);
    throw fail('upstream.unavailable', { variant: 'refused', ...TIKTOK });
  }

  return { resolveLink, fetchVideo, openMedia };
}

export type TikTokAdapter = ReturnType<typeof createTikTokAdapter>;

// Reddit's API (issue 44): the post from its public JSON (`www.reddit.com/comments/<id>.json`) or,
// when the operator gave an app's credentials, from `oauth.reddit.com` with an application-only
// token (client_credentials, Reddit's OAuth2 wiki); the video's DASH manifest and files from
// v.redd.it, pictures from i.redd.it / preview.redd.it. Every request carries the descriptive
// User-Agent Reddit's API rules ask for. All traffic goes through the guarded HTTP client.
import { AppError, fail } from '../../errors.js';
import type { HttpClient, HttpResponse } from '../../adapters/http/index.js';
import type { FetchedVideo, MediaOpenOptions, VideoRef } from '../platform.js';
import { answerFailure, busy, REDDIT, retryAfterSeconds, upstream } from './errors.js';
import { parseRedditLink, postUrl } from './link.js';
import { type DashFiles, readManifest } from './dash.js';
import { mapPost, mediaKind, mediaPost, type Post, redditVideo } from './post-mapper.js';

export interface RedditSettings {
  clientId?: string;
  clientSecret?: string;
  /** 'allow': over-18 posts are downloaded too; else they are refused. */
  over18?: 'allow' | 'refuse';
  /** `<platform>:<app id>:<version> (by /u/<name>)` or with a contact URL, as Reddit asks. */
  userAgent: string;
}

const API_HOSTS = ['www.reddit.com', 'oauth.reddit.com', 'reddit.com', 'old.reddit.com'];
const MEDIA_HOSTS = [
  'v.redd.it',
  'i.redd.it',
  'preview.redd.it',
  'external-preview.redd.it',
  'i.imgur.com',
  'a.thumbs.redditmedia.com',
  'b.thumbs.redditmedia.com',
];
const POST_MAX_BYTES = 4 * 1024 * 1024;
const MANIFEST_MAX_BYTES = 256 * 1024;

export function createRedditAdapter(deps: { http: HttpClient; settings: RedditSettings }) {
  const { http, settings } = deps;
  const ua = { 'user-agent': settings.userAgent };
  let token: { value: string; until: number } | null = null;
  // Reddit said to wait (429, or X-Ratelimit-Remaining at 0): no request leaves before then.
  let pausedUntil = 0;

  function honourLimits(res: HttpResponse) {
    const remaining = Number(res.header('x-ratelimit-remaining'));
    if (res.header('x-ratelimit-remaining') !== undefined && remaining < 1)
      pausedUntil = Date.now() + retryAfterSeconds(res.header.bind(res)) * 1000;
  }
  function checkPause() {
    const wait = pausedUntil - Date.now();
    if (wait > 0) throw busy(Math.ceil(wait / 1000));
  }

  /** An application-only bearer token, kept until a minute before it expires. */
  async function bearer(signal?: AbortSignal): Promise<string | null> {
    if (!settings.clientId || !settings.clientSecret) return null;
    if (token && token.until > Date.now()) return token.value;
    const basic = Buffer.from(`${settings.clientId}:${settings.clientSecret}`).toString('base64');
    const res = await http
      .request('https://www.reddit.com/api/v1/access_token', {
        allow: API_HOSTS,
        method: 'POST',
        signal,
        maxRedirects: 0,
        maxBytes: 64 * 1024,
        body: 'grant_type=client_credentials',
        headers: { ...ua, authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      })
      .catch((err) => {
        throw upstream(err);
      });
    if (res.status === 429) {
      res.body.destroy();
      throw busy(retryAfterSeconds(res.header.bind(res)));
    }
    type TokenAnswer = { access_token?: unknown; expires_in?: unknown };
    const answer = await res.json<TokenAnswer>(64 * 1024).catch((): TokenAnswer => ({}));
    const value = typeof answer.access_token === 'string' ? answer.access_token : null;
    if (res.status !== 200 || !value) throw fail('upstream.unavailable', REDDIT);
    const seconds = typeof answer.expires_in === 'number' ? answer.expires_in : 3600;
    token = { value, until: Date.now() + Math.max(60, seconds - 60) * 1000 };
    return value;
  }

  /** Follows a share link or a v.redd.it address by its redirect only, to the post it names. */
  async function resolveLink(url: string, signal?: AbortSignal): Promise<VideoRef> {
    const link = parseRedditLink(url);
    if (link?.kind === 'comment') throw fail('link.unsupported', { variant: 'comment', ...REDDIT });
    if (link?.kind === 'post') return { platform: 'reddit', id: link.id, url: postUrl(link.id) };
    if (!link) throw fail('link.unsupported', { variant: 'provide', platforms: REDDIT.platform });
    checkPause();
    let res: HttpResponse;
    try {
      res = await http.request(link.url, { allow: [...API_HOSTS, 'v.redd.it'], signal, maxRedirects: 0, headers: ua });
    } catch (err) {
      throw upstream(err);
    }
    res.body.destroy();
    if (res.status === 429) throw busy(retryAfterSeconds(res.header.bind(res)));
    const location = res.header('location');
    const target = location ? parseRedditLink(new URL(location, link.url).href) : null;
    if (target?.kind === 'post') return { platform: 'reddit', id: target.id, url: postUrl(target.id) };
    if (target?.kind === 'comment') throw fail('link.unsupported', { variant: 'comment', ...REDDIT });
    throw res.status === 404
      ? fail('video.not_found', REDDIT)
      : fail('link.unsupported', { variant: 'short_link', ...REDDIT });
  }

  async function fetchPost(id: string, signal?: AbortSignal, retried = false): Promise<Post> {
    checkPause();
    const auth = await bearer(signal);
    const url = auth
      ? `https://oauth.reddit.com/comments/${id}?raw_json=1&limit=1`
      : `https://www.reddit.com/comments/${id}.json?raw_json=1&limit=1`;
    let res: HttpResponse;
    let body: unknown = null;
    try {
      res = await http.request(url, {
        allow: API_HOSTS,
        signal,
        maxRedirects: 2,
        maxBytes: POST_MAX_BYTES,
        headers: { ...ua, accept: 'application/json', ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
      });
      honourLimits(res);
      body = await res.json(POST_MAX_BYTES).catch(() => null);
    } catch (err) {
      throw upstream(err);
    }
    // An expired token: one new one, then the answer stands.
    if (res.status === 401 && auth && !retried) {
      token = null;
      return fetchPost(id, signal, true);
    }
    if (res.status === 429) pausedUntil = Date.now() + retryAfterSeconds(res.header.bind(res)) * 1000;
    if (res.status !== 200) throw answerFailure(res.status, (body as Post | null)?.reason, res.header.bind(res));
    // Two listings: the post, then its comments.
    const post = Array.isArray(body) ? body[0]?.data?.children?.[0]?.data : null;
    if (!post || typeof post !== 'object') throw fail('video.not_found', REDDIT);
    return post as Post;
  }

  async function fetchManifest(video: Post, signal?: AbortSignal): Promise<DashFiles> {
    const url = typeof video.dash_url === 'string' ? video.dash_url.replaceAll('&amp;', '&') : null;
    if (!url?.startsWith('https://v.redd.it/')) throw fail('upstream.unavailable', REDDIT);
    let files: DashFiles;
    try {
      const res = await http.request(url, { allow: ['v.redd.it'], signal, maxRedirects: 2, headers: ua });
      if (res.status !== 200) {
        res.body.destroy();
        throw fail('upstream.unavailable', REDDIT);
      }
      files = readManifest(await res.text(MANIFEST_MAX_BYTES), url);
    } catch (err) {
      throw upstream(err);
    }
    if (!files.videos.length) throw fail('upstream.unavailable', REDDIT);
    return files;
  }

  async function fetchVideo(ref: VideoRef, signal?: AbortSignal): Promise<FetchedVideo> {
    const post = await fetchPost(ref.id, signal);
    const source = mediaPost(post);
    if (post.removed_by_category || source.removed_by_category)
      throw fail('video.not_found', { variant: 'removed', ...REDDIT });
    if ((post.over_18 === true || source.over_18 === true) && settings.over18 !== 'allow')
      throw fail('video.age_restricted', { variant: 'refused', ...REDDIT });
    const kind = mediaKind(source);
    if (kind === 'text') throw fail('link.unsupported', { variant: 'text_post', ...REDDIT });
    if (kind === 'none') throw fail('link.unsupported', { variant: 'no_media', ...REDDIT });
    const video = redditVideo(source);
    const files = video ? await fetchManifest(video, signal) : null;
    return { ref, raw: post, video: mapPost(post, files), session: null };
  }

  /** Opens a file (URLs tried in order) on Reddit's media hosts. */
  async function openMedia(urls: string[], _video: FetchedVideo, opts: MediaOpenOptions = {}): Promise<HttpResponse> {
    let failure: AppError = fail('upstream.unavailable', { variant: 'refused', ...REDDIT });
    for (const url of urls) {
      let res: HttpResponse;
      try {
        res = await http.request(url, {
          allow: MEDIA_HOSTS,
          signal: opts.signal,
          maxRedirects: 2,
          maxBytes: opts.maxBytes,
          bulk: opts.bulk,
          headers: { ...ua, accept: '*/*', ...(opts.range ? { range: opts.range } : {}) },
        });
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        if (err instanceof AppError && err.code === 'upstream.blocked') throw err;
        failure = upstream(err) as AppError;
        continue; // a next URL may still answer
      }
      if (res.status === 200 || res.status === 206) return res;
      res.body.destroy();
      if (res.status === 416) throw fail('request.range');
      failure =
        res.status === 404 || res.status === 410
          ? fail('video.not_found', REDDIT)
          : res.status === 429
            ? busy(retryAfterSeconds(res.header.bind(res)))
            : fail('upstream.unavailable', { variant: 'refused', ...REDDIT });
    }
    throw failure;
  }

  return { resolveLink, fetchVideo, openMedia };
}

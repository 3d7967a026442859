// Bluesky's public API (docs/sources.md 'Bluesky posts' and on): the post from the AppView's getPostThread, the
// original video from the author's PDS (com.atproto.sync.getBlob), pictures and thumbnails from
// Bluesky's CDN. No login, no cookies. All traffic goes through the guarded HTTP client.
import { AppError, fail } from '../../errors.js';
import type { HttpClient, HttpResponse } from '../../adapters/http/index.js';
import type { FetchedVideo, MediaOpenOptions, VideoRef } from '../platform.js';
import { BLUESKY, upstream, xrpcFailure } from './errors.js';
import { APPVIEW, createIdentity } from './identity.js';
import { atUri, parseBlueskyLink, postId, postUrl, readPostId } from './link.js';
import { mapPost, mediaKind, type PostView } from './post-mapper.js';

/** Where pictures, thumbnails, avatars (cdn) and video thumbnails (video) live. */
export const MEDIA_HOSTS = ['cdn.bsky.app', 'video.bsky.app'];
const THREAD_MAX_BYTES = 2 * 1024 * 1024;

/** What opening media needs: the author's PDS origin (its host joins the allow-list); null without a video. */
interface BlueskySession {
  pds: string | null;
}

interface ThreadAnswer {
  error?: string;
  thread?: { $type?: string; notFound?: boolean; blocked?: boolean; post?: PostView };
}

export function createBlueskyAdapter(deps: { http: HttpClient }) {
  const { http } = deps;
  const identity = createIdentity(deps);

  async function resolveLink(url: string, signal?: AbortSignal): Promise<VideoRef> {
    const link = parseBlueskyLink(url);
    if (!link) throw fail('link.unsupported', { variant: 'provide', platforms: BLUESKY.platform });
    const did = link.kind === 'post' ? link.did : await identity.did(link.handle, signal);
    return { platform: 'bluesky', id: postId(did, link.rkey), url: postUrl(did, link.rkey) };
  }

  async function fetchThread(did: string, rkey: string, signal?: AbortSignal): Promise<PostView> {
    const query = new URLSearchParams({ uri: atUri(did, rkey), depth: '0', parentHeight: '0' });
    let res: HttpResponse;
    let answer: ThreadAnswer = {};
    try {
      res = await http.request(`https://${APPVIEW}/xrpc/app.bsky.feed.getPostThread?${query}`, {
        allow: [APPVIEW],
        signal,
        maxRedirects: 0,
        maxBytes: THREAD_MAX_BYTES,
        headers: { accept: 'application/json' },
      });
      const text = await res.text(THREAD_MAX_BYTES);
      try {
        answer = JSON.parse(text) as ThreadAnswer;
      } catch {
        // not JSON: judged by its status below
      }
    } catch (err) {
      throw upstream(err);
    }
    // A missing post: 400 {"error":"NotFound"} (the lexicon's one error).
    if (res.status !== 200) throw xrpcFailure(res.status, answer.error);
    const thread = answer.thread;
    if (thread?.blocked || thread?.$type === 'app.bsky.feed.defs#blockedPost')
      throw fail('video.not_found', { variant: 'withheld', ...BLUESKY });
    if (thread?.notFound || thread?.$type === 'app.bsky.feed.defs#notFoundPost' || !thread?.post)
      throw fail('video.not_found', BLUESKY);
    return thread.post;
  }

  async function fetchVideo(ref: VideoRef, signal?: AbortSignal): Promise<FetchedVideo> {
    const key = readPostId(ref.id);
    if (!key) throw fail('video.not_found', BLUESKY);
    const post = await fetchThread(key.did, key.rkey, signal);
    const kind = mediaKind(post);
    if (kind === 'none') throw fail('link.unsupported', { variant: 'no_media', ...BLUESKY });
    // The original video (and its captions) are blobs on the author's PDS.
    const pds = kind === 'video' ? await identity.pds(key.did, signal) : null;
    const blobUrl = pds
      ? (cid: string) => `${pds}/xrpc/com.atproto.sync.getBlob?${new URLSearchParams({ did: key.did, cid })}`
      : null;
    const session: BlueskySession = { pds };
    return { ref, raw: post as Record<string, unknown>, video: mapPost(post, ref.id, blobUrl), session };
  }

  /** Opens a file (URLs tried in order): a blob on the author's PDS, or a picture on Bluesky's CDN. */
  async function openMedia(urls: string[], video: FetchedVideo, opts: MediaOpenOptions = {}): Promise<HttpResponse> {
    const { pds } = video.session as BlueskySession;
    const allow = pds ? [...MEDIA_HOSTS, new URL(pds).hostname] : MEDIA_HOSTS;
    let failure: AppError = fail('upstream.unavailable', { variant: 'refused', ...BLUESKY });
    for (const url of urls) {
      let res: HttpResponse;
      try {
        res = await http.request(url, {
          allow,
          signal: opts.signal,
          maxRedirects: 3,
          maxBytes: opts.maxBytes,
          bulk: opts.bulk,
          headers: { accept: '*/*', ...(opts.range ? { range: opts.range } : {}) },
        });
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        if (err instanceof AppError && err.code === 'upstream.blocked') throw err;
        failure = upstream(err) as AppError;
        continue; // a next URL may still answer
      }
      if (res.status === 200 || res.status === 206) return res;
      if (res.status === 416) {
        res.body.destroy();
        throw fail('request.range');
      }
      // getBlob's errors are XRPC JSON (BlobNotFound, RepoTakendown...); a CDN's are not.
      const error = await res
        .json<{ error?: string }>(16 * 1024)
        .then((b) => b.error)
        .catch(() => undefined);
      failure = xrpcFailure(res.status, error);
      if (failure.code === 'upstream.unavailable')
        failure = fail('upstream.unavailable', { variant: 'refused', ...BLUESKY });
    }
    throw failure;
  }

  return { resolveLink, fetchVideo, openMedia };
}

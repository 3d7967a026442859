// Bluesky's public API (docs/sources.md 'Bluesky posts' and on): the post from the AppView's getPostThread, the
// original video from the author's PDS (com.atproto.sync.getBlob), pictures and thumbnails from
// Bluesky's CDN. No login, no cookies. All traffic goes through the guarded HTTP client.
import { AppError, fail } from '../../errors.js';
import type { HttpClient, HttpResponse } from '../../adapters/http/index.js';
import type { FetchedVideo, MediaOpenOptions, VideoRef } from '../platform.js';
import { BLUESKY, upstream, xrpcFailure } from './errors.js';
import { createIdentity } from './identity.js';
import { atUri, parseBlueskyLink, postId, postUrl, readPostId } from './link.js';
import { mapPost, type PostView } from './post-mapper.js';
import { postMedia } from './embeds.js';
import { createAppView } from './appview.js';
import { probeVideoFrame } from './video-frame.js';
import { hidesFromLoggedOut } from './profile.js';

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
  const appView = createAppView(deps);

  async function resolveLink(url: string, signal?: AbortSignal): Promise<VideoRef> {
    const link = parseBlueskyLink(url);
    if (!link) throw fail('link.unsupported', { variant: 'provide', platforms: BLUESKY.platform });
    const did = link.kind === 'post' ? link.did : await identity.did(link.handle, signal);
    return { platform: 'bluesky', id: postId(did, link.rkey), url: postUrl(did, link.rkey) };
  }

  async function fetchThread(did: string, rkey: string, signal?: AbortSignal): Promise<PostView> {
    const { status, body } = await appView<ThreadAnswer>(
      'app.bsky.feed.getPostThread',
      { uri: atUri(did, rkey), depth: '0', parentHeight: '0' },
      { signal, maxBytes: THREAD_MAX_BYTES },
    );
    // A missing post: 400 {"error":"NotFound"} (the lexicon's one error).
    if (status !== 200) throw xrpcFailure(status, body.error);
    const thread = body.thread;
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
    if (hidesFromLoggedOut(post.author?.labels))
      throw fail('video.login_required', { variant: 'author_asked', ...BLUESKY });
    const media = postMedia(post);
    if (media.kind === 'none') throw fail('link.unsupported', { variant: 'no_media', ...BLUESKY });
    // The original video (and its captions) are blobs on its owner's PDS (a quoted post's author's
    // when the post only quotes it); the frame size comes from the file's own header.
    const owner = media.kind === 'video' ? media.did : null;
    const pds = owner ? await identity.pds(owner, signal) : null;
    const blobUrl =
      pds && owner
        ? (cid: string) => `${pds}/xrpc/com.atproto.sync.getBlob?${new URLSearchParams({ did: owner, cid })}`
        : null;
    const frame =
      media.kind === 'video' && blobUrl
        ? await probeVideoFrame(http, blobUrl(media.cid), { fileSize: media.size, signal })
        : null;
    const session: BlueskySession = { pds };
    return { ref, raw: post as Record<string, unknown>, video: mapPost(post, ref.id, blobUrl, frame, media), session };
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

  return { resolveLink, fetchVideo, openMedia, appView, identity };
}

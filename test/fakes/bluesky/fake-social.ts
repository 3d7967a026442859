// The AppView's profile and thread calls of the fake Bluesky (fake-bluesky.ts), CONSTRUCTED from the
// Lexicons (app/bsky/actor/getProfile.json, feed/getAuthorFeed.json, feed/getPostThread.json,
// feed/defs.json #feedViewPost #reasonRepost #threadViewPost) and the AppView's own error answers
// (bluesky-social/atproto packages/bsky: "Profile not found", AccountDeactivated, AccountTakedown,
// BlockedActor, BlockedByActor): profiles of many pages behind an opaque cursor, and reply trees.
import type http from 'node:http';
import { blobCid, postView, tid } from './constructed-posts.js';
import { mediaEmbeds, type MediaForm } from './embed-forms.js';

type Post = Record<string, any>;
type Json = (res: http.ServerResponse, status: number, body: unknown) => void;
export interface FakeProfile {
  did: string;
  handle: string;
  displayName: string;
  labels: Array<{ val: string }>;
  /** An AppView error answer instead of the profile (400 with this `error`). */
  error?: 'AccountDeactivated' | 'AccountTakedown' | 'BlockedByActor';
  feed: Array<{ post: Post; reason?: unknown }>;
}

export function createFakeSocial(o: { json: Json; threads: Map<string, unknown>; servePost: (post: Post) => void }) {
  const profiles = new Map<string, FakeProfile>(); // did and handle -> profile
  const replyTrees = new Map<string, unknown[]>(); // post at-uri -> replies
  /** getAuthorFeed calls with their query, and the largest page answered. */
  const feedCalls: Array<{ actor: string; filter: string; cursor: string; limit: number }> = [];
  let seq = 5000;

  const find = (actor: string) => profiles.get(actor.toLowerCase());
  /** Sends an answer; true: the request was this module's. */
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    o.json(res, status, body);
    return true;
  };
  const notFound = (res: http.ServerResponse) =>
    send(res, 400, { error: 'InvalidRequest', message: 'Profile not found' });
  const profileView = (p: FakeProfile) => ({
    did: p.did,
    handle: p.handle,
    displayName: p.displayName,
    avatar: `https://cdn.bsky.app/img/avatar/plain/${p.did}/${blobCid(`avatar ${p.did}`)}@jpeg`,
    labels: p.labels,
    followersCount: 10,
    postsCount: p.feed.length,
  });

  function handle(url: URL, res: http.ServerResponse): boolean {
    const q = (name: string) => url.searchParams.get(name) ?? '';
    if (url.pathname === '/xrpc/app.bsky.actor.getProfile') {
      const p = find(q('actor'));
      if (!p) return notFound(res);
      if (p.error === 'AccountDeactivated')
        return send(res, 400, { error: 'AccountDeactivated', message: 'Account is deactivated' });
      if (p.error === 'AccountTakedown')
        return send(res, 400, { error: 'AccountTakedown', message: 'Account has been suspended' });
      return send(res, 200, profileView(p));
    }
    if (url.pathname === '/xrpc/app.bsky.feed.getAuthorFeed') {
      const p = find(q('actor'));
      const limit = Math.min(100, Number(q('limit') || 50));
      feedCalls.push({ actor: q('actor'), filter: q('filter'), cursor: q('cursor'), limit });
      if (!p || p.error === 'AccountDeactivated' || p.error === 'AccountTakedown') return notFound(res);
      if (p.error === 'BlockedByActor')
        return send(res, 400, { error: 'BlockedByActor', message: `Requester is blocked by actor: ${p.did}` });
      // The cursor is opaque to clients: here the index of the next item, disguised.
      const start = q('cursor') ? Number(Buffer.from(q('cursor'), 'base64url').toString().split(':')[1]) : 0;
      const items = p.feed.slice(start, start + limit);
      const next =
        start + limit < p.feed.length ? Buffer.from(`feed:${start + limit}`).toString('base64url') : undefined;
      return send(res, 200, { feed: items, ...(next ? { cursor: next } : {}) });
    }
    return false;
  }

  /** A thread as getPostThread answers it for `depth` (0: the post alone). */
  function thread(uri: string, depth: number, base: unknown): unknown {
    if (!depth || !base || typeof base !== 'object') return base;
    const cut = (nodes: unknown[], d: number): unknown[] =>
      nodes.map((n: any) => (n.post ? { ...n, replies: d < depth ? cut(n.replies ?? [], d + 1) : [] } : n));
    return { ...(base as object), replies: cut(replyTrees.get(uri) ?? [], 1) };
  }

  return {
    handle,
    thread,
    feedCalls,
    /**
     * A profile of `posts` posts with media, newest first, cycling through the media forms; `reposts`
     * more by another account mixed in as reposts.
     */
    addProfile(
      author: { did: string; handle: string; displayName?: string },
      opts: { posts: number; reposts?: number; labels?: readonly string[]; error?: FakeProfile['error'] },
    ) {
      const forms: MediaForm[] = ['video', 'images', 'gallery', 'images'];
      const feed: FakeProfile['feed'] = [];
      const other = { did: `${author.did.slice(0, -4)}zzzz`, handle: 'someone-else.bsky.social' };
      const total = opts.posts + (opts.reposts ?? 0);
      for (let i = 0; i < total; i++) {
        const n = ++seq;
        const repost = i % 4 === 3 && (opts.reposts ?? 0) > Math.floor(i / 4);
        const by = repost ? other : author;
        const createdAt = new Date(Date.UTC(2026, 10, 20) - i * 3_600_000).toISOString();
        const embeds = mediaEmbeds(forms[i % forms.length], by.did, `profile ${n}`);
        const post = postView(
          { ...by, displayName: repost ? 'Someone else' : (author.displayName ?? 'Creator') },
          tid(n),
          `Post number ${total - i} of ${author.handle}`,
          embeds.record,
          embeds.view,
          createdAt,
        );
        if (opts.labels)
          (post.author as { labels: unknown[] }).labels = opts.labels.map((val) => ({ val, src: by.did }));
        o.servePost(post);
        feed.push(
          repost
            ? { post, reason: { $type: 'app.bsky.feed.defs#reasonRepost', by: author, indexedAt: createdAt } }
            : { post },
        );
      }
      const profile: FakeProfile = {
        did: author.did,
        handle: author.handle,
        displayName: author.displayName ?? 'Creator',
        labels: (opts.labels ?? []).map((val) => ({ val, src: author.did })),
        error: opts.error,
        feed,
      };
      profiles.set(author.did, profile);
      profiles.set(author.handle, profile);
      return profile;
    },
    /** Replies under a post (threadViewPost, blockedPost, notFoundPost nodes). */
    setReplies(uri: string, replies: unknown[]) {
      replyTrees.set(uri, replies);
    },
  };
}
export type FakeSocial = ReturnType<typeof createFakeSocial>;

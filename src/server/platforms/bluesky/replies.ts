// A post's replies (issue 45): the thread from the AppView's app.bsky.feed.getPostThread, as deep as
// it gives (the Lexicon's most: depth 1000), flattened depth first in the thread's order. A reply
// the AppView withholds (#blockedPost, #notFoundPost) is a row that says so.
import { fail } from '../../errors.js';
import type { ReplyRow } from '../profile-model.js';
import type { VideoRef } from '../platform.js';
import type { AppView } from './appview.js';
import { count, str } from './embeds.js';
import { BLUESKY, xrpcFailure } from './errors.js';
import { atUri, postUrl, readDid, readPostId } from './link.js';
import type { PostView } from './post-mapper.js';
import { hidesFromLoggedOut } from './profile.js';

const THREAD_MAX_BYTES = 8 * 1024 * 1024;
/** Rows kept at most (a thread this large is cut, deepest branches last). */
export const REPLIES_MAX = 20_000;
const DEPTH_MAX = 1000;

interface ThreadNode {
  $type?: unknown;
  uri?: unknown;
  notFound?: unknown;
  blocked?: unknown;
  author?: { did?: unknown };
  post?: PostView;
  replies?: unknown;
}

/** The bsky.app link of an at:// post URI; null when it is not one. */
function linkOf(uri: unknown): string | null {
  const m = typeof uri === 'string' ? /^at:\/\/([^/]+)\/app\.bsky\.feed\.post\/([2-7a-z]{13})$/.exec(uri) : null;
  const did = m ? readDid(m[1]) : null;
  return m && did ? postUrl(did, m[2]) : null;
}

/** The thread's replies, depth first, without recursion (a hostile depth cannot overflow the stack). */
export function flattenReplies(root: ThreadNode, rootUrl: string): ReplyRow[] {
  const rows: ReplyRow[] = [];
  const stack: Array<{ node: ThreadNode; depth: number; parentUrl: string }> = [];
  const push = (parent: ThreadNode, depth: number, parentUrl: string) => {
    const replies = Array.isArray(parent.replies) ? (parent.replies as ThreadNode[]) : [];
    for (let i = replies.length - 1; i >= 0; i--) stack.push({ node: replies[i], depth, parentUrl });
  };
  push(root, 1, rootUrl);
  while (stack.length && rows.length < REPLIES_MAX) {
    const { node, depth, parentUrl } = stack.pop() as (typeof stack)[number];
    if (!node || typeof node !== 'object') continue;
    const blocked = node.blocked === true || node.$type === 'app.bsky.feed.defs#blockedPost';
    const missing = node.notFound === true || node.$type === 'app.bsky.feed.defs#notFoundPost';
    const post = node.post;
    if (blocked || missing || !post) {
      rows.push({
        state: blocked ? 'blocked' : 'not_found',
        authorHandle: null,
        authorId: str(node.author?.did),
        authorName: null,
        text: '',
        createdAt: null,
        likes: 0,
        reposts: 0,
        quotes: 0,
        parentUrl,
        depth,
        url: linkOf(node.uri),
      });
      continue;
    }
    const url = linkOf(post.uri);
    rows.push({
      state: 'ok',
      authorHandle: str(post.author?.handle),
      authorId: str(post.author?.did),
      authorName: str(post.author?.displayName),
      text: (str(post.record?.text) ?? '').slice(0, 3000),
      createdAt: str(post.record?.createdAt),
      likes: count(post.likeCount),
      reposts: count(post.repostCount),
      quotes: count(post.quoteCount),
      parentUrl,
      depth,
      url,
    });
    if (depth < DEPTH_MAX && url) push(node, depth + 1, url);
  }
  return rows;
}

export function createReplyLister(appView: AppView) {
  return async function listReplies(ref: VideoRef, signal?: AbortSignal): Promise<ReplyRow[]> {
    const key = readPostId(ref.id);
    if (!key) throw fail('video.not_found', BLUESKY);
    const { status, body } = await appView<{ thread: ThreadNode }>(
      'app.bsky.feed.getPostThread',
      { uri: atUri(key.did, key.rkey), depth: String(DEPTH_MAX), parentHeight: '0' },
      { signal, maxBytes: THREAD_MAX_BYTES },
    );
    if (status !== 200) throw xrpcFailure(status, body.error);
    const thread = body.thread;
    if (thread?.blocked === true || thread?.$type === 'app.bsky.feed.defs#blockedPost')
      throw fail('video.not_found', { variant: 'withheld', ...BLUESKY });
    if (!thread?.post) throw fail('video.not_found', BLUESKY);
    if (hidesFromLoggedOut(thread.post.author?.labels))
      throw fail('video.login_required', { variant: 'author_asked', ...BLUESKY });
    return flattenReplies(thread, postUrl(key.did, key.rkey));
  };
}

// A whole Bluesky profile (issue 45): its posts with media, page by page, from the AppView's public
// app.bsky.feed.getAuthorFeed with the `posts_with_media` filter and its cursor (the first page after
// app.bsky.actor.getProfile, whose errors tell a missing, deactivated or taken-down account apart).
// Only one page is ever held; the cursor is Bluesky's own, passed back as it came.
import { fail } from '../../errors.js';
import type { ListedPost, ProfilePage, ProfileRef } from '../profile-model.js';
import type { AppView } from './appview.js';
import { postMedia, str } from './embeds.js';
import { BLUESKY, xrpcFailure } from './errors.js';
import { postId, postUrl, readDid } from './link.js';
import type { PostView } from './post-mapper.js';

const PAGE_MAX_BYTES = 4 * 1024 * 1024;
const PAGE_SIZE = '50';
/** Pages read for one answer when reposts left out leave a page empty. */
const MAX_HOPS = 3;
export const CURSOR_MAX = 512;

interface Label {
  val?: unknown;
}
interface ProfileView {
  did?: unknown;
  handle?: unknown;
  displayName?: unknown;
  avatar?: unknown;
  labels?: Label[];
}
interface FeedAnswer {
  feed?: Array<{ post?: PostView; reason?: { $type?: unknown } }>;
  cursor?: unknown;
}

/** The author asked not to be shown to logged-out viewers (the `!no-unauthenticated` label). */
export const hidesFromLoggedOut = (labels: unknown) =>
  Array.isArray(labels) && labels.some((l: Label) => l?.val === '!no-unauthenticated');

/** An error answer of getProfile or getAuthorFeed to the profile's neutral failure. */
function profileFailure(status: number, error: string | undefined, message: string | undefined) {
  if (error === 'AccountDeactivated') return fail('profile.unavailable', { variant: 'deactivated', ...BLUESKY });
  if (error === 'AccountTakedown') return fail('profile.unavailable', { variant: 'suspended', ...BLUESKY });
  if (error === 'BlockedActor' || error === 'BlockedByActor')
    return fail('profile.unavailable', { variant: 'blocked', ...BLUESKY });
  // "Profile not found" (InvalidRequest), or a handle no one holds.
  if (status === 400 && (error === 'InvalidRequest' || /not found/i.test(message ?? '')))
    return fail('profile.not_found', BLUESKY);
  return xrpcFailure(status, error);
}

function listed(item: NonNullable<FeedAnswer['feed']>[number]): ListedPost | null {
  const post = item.post;
  const uri = str(post?.uri);
  const m = uri ? /^at:\/\/([^/]+)\/app\.bsky\.feed\.post\/([2-7a-z]{13})$/.exec(uri) : null;
  const did = m ? readDid(m[1]) : null;
  if (!post || !m || !did) return null;
  const media = postMedia(post);
  if (media.kind === 'none') return null;
  const thumb = media.kind === 'video' ? media.thumbnail : (media.slides[0].thumb ?? media.slides[0].url);
  return {
    id: postId(did, m[2]),
    url: postUrl(did, m[2]),
    text: (str(post.record?.text) ?? '').slice(0, 3000),
    createdAt: str(post.record?.createdAt) ?? str(post.indexedAt),
    kind: media.kind,
    thumbnailUrl: thumb,
    repost: item.reason?.$type === 'app.bsky.feed.defs#reasonRepost',
  };
}

export function createProfileLister(appView: AppView) {
  return async function listProfile(
    ref: ProfileRef,
    o: { cursor?: string; reposts: boolean; signal?: AbortSignal },
  ): Promise<ProfilePage> {
    const signal = o.signal;
    const profile = await appView<ProfileView>(
      'app.bsky.actor.getProfile',
      { actor: ref.actor },
      { signal, maxBytes: 256 * 1024 },
    );
    if (profile.status !== 200) throw profileFailure(profile.status, profile.body.error, profile.body.message);
    // Respected as Bluesky's own app does for a visitor who is not signed in (we never sign in).
    if (hidesFromLoggedOut(profile.body.labels))
      throw fail('profile.unavailable', { variant: 'logged_out', ...BLUESKY });
    const author = {
      handle: str(profile.body.handle) ?? ref.actor,
      name: str(profile.body.displayName),
      avatarUrl: str(profile.body.avatar)?.startsWith('https://') ? (profile.body.avatar as string) : null,
    };
    const posts: ListedPost[] = [];
    let cursor = o.cursor ?? null;
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const params: Record<string, string> = { actor: ref.actor, filter: 'posts_with_media', limit: PAGE_SIZE };
      if (cursor) params.cursor = cursor;
      const page = await appView<FeedAnswer>('app.bsky.feed.getAuthorFeed', params, {
        signal,
        maxBytes: PAGE_MAX_BYTES,
      });
      if (page.status !== 200) throw profileFailure(page.status, page.body.error, page.body.message);
      const feed = Array.isArray(page.body.feed) ? page.body.feed.slice(0, 100) : [];
      for (const item of feed) {
        const post = listed(item);
        if (post && (o.reposts || !post.repost) && !hidesFromLoggedOut(item.post?.author?.labels)) posts.push(post);
      }
      const next = str(page.body.cursor);
      cursor = next && next.length <= CURSOR_MAX && next !== cursor ? next : null;
      if (posts.length || !cursor) break;
    }
    if (!o.cursor && !posts.length && !cursor) throw fail('profile.no_media', BLUESKY);
    return { author, posts, cursor };
  };
}

// Reddit's links (issue 44). A post is named by its base36 id, which is our video id:
//   https://{www,old,new,np,m}.reddit.com/r/<sub>/comments/<id>/<slug>/   (or bare reddit.com)
//   https://www.reddit.com/user/<name>/comments/<id>/...  (also /u/<name>/, and /comments/<id>)
//   https://redd.it/<id>                                  the short form: the id is in it
// Followed by their redirect (resolveShortLink), like other platforms' short links:
//   https://www.reddit.com/r/<sub>/s/<code>               a share link
//   https://v.redd.it/<video id>                          a video's own address
// A comment's link (/comments/<id>/<slug>/<comment id>) is recognised so the refusal can say what it is.
import { linkShape } from '../../../shared/platform-links.js';

export type RedditLink =
  | { kind: 'post'; id: string }
  | { kind: 'share'; url: string }
  | { kind: 'video'; url: string }
  | { kind: 'comment'; url: string };

const MAIN_HOSTS = new Set([
  'reddit.com',
  'www.reddit.com',
  'old.reddit.com',
  'new.reddit.com',
  'np.reddit.com',
  'm.reddit.com',
]);
const ID = '[a-z0-9]{1,12}';
const SUB = '[A-Za-z0-9_]{2,21}';
const USER = '[A-Za-z0-9_-]{1,20}';
const SLUG = '[^/]{1,300}';
const WHERE = `(?:/r/${SUB}|/(?:user|u)/${USER})?`;
const POST = new RegExp(`^${WHERE}/comments/(${ID})(?:/${SLUG}(/${ID})?)?/?$`, 'i');
const SHARE = new RegExp(`^/r/(${SUB})/s/([A-Za-z0-9]{4,20})/?$`, 'i');
const SHORT = new RegExp(`^/(${ID})/?$`, 'i');
const VIDEO = /^\/([a-z0-9]{4,20})\/?$/i;

/** A cleaned link, or null when it is not a Reddit post link. Pure. */
export function parseRedditLink(input: unknown): RedditLink | null {
  const shape = linkShape(input);
  if (!shape) return null;
  const url = new URL(shape);
  const host = url.hostname;
  const p = url.pathname;
  if (host === 'redd.it') {
    const m = SHORT.exec(p);
    return m ? { kind: 'post', id: m[1].toLowerCase() } : null;
  }
  if (host === 'v.redd.it') {
    const m = VIDEO.exec(p);
    return m ? { kind: 'video', url: `https://v.redd.it/${m[1]}` } : null;
  }
  if (!MAIN_HOSTS.has(host)) return null;
  const share = SHARE.exec(p);
  if (share) return { kind: 'share', url: `https://www.reddit.com/r/${share[1]}/s/${share[2]}` };
  const post = POST.exec(p);
  if (!post) return null;
  const id = post[1].toLowerCase();
  return post[2]
    ? { kind: 'comment', url: `https://www.reddit.com/comments/${id}/_${post[2].toLowerCase()}/` }
    : { kind: 'post', id };
}

/** The same rule over a link reduced by shared/platform-links.ts `linkShape` (host lower-cased, no query). */
export const LINK_PATTERN = new RegExp(
  '^https?://(?:' +
    `(?:(?:www|old|new|np|m)\\.)?reddit\\.com(?:${WHERE}/comments/${ID}(?:/${SLUG}(?:/${ID})?)?|/r/${SUB}/s/[A-Za-z0-9]{4,20})` +
    `|redd\\.it/${ID}|v\\.redd\\.it/[A-Za-z0-9]{4,20})/?$`,
  'i',
);
export const EXAMPLE_LINK = 'https://www.reddit.com/r/videos/comments/1abc2de/a_video/';
export const ID_PATTERN = /^[a-z0-9]{1,12}$/;
export const postUrl = (id: string) => `https://www.reddit.com/comments/${id}/`;

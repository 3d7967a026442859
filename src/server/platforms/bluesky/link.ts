// Bluesky's links (docs/sources.md 'Bluesky posts'): https://bsky.app/profile/<handle or DID>/post/<rkey>.
// A DID link names the post for good; a handle link is followed like a short link (the handle is
// resolved to its DID, resolveShortLink), since a handle can move to another account.
// Our video id holds the DID and the record key, readable and path-safe:
//   did:plc:<24 base32> + rkey -> plc-<24 base32>-<rkey>;  did:web:<domain> + rkey -> web-<domain>-<rkey>

import { linkShape } from '../../../shared/platform-links.js';

/** A record key of a post is a TID: 13 characters of base32-sortable. */
const RKEY = '[2-7a-z]{13}';
const PLC = '[a-z2-7]{24}';
const DOMAIN = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+';
/** A did:web domain longer than this would make an id over the routes' 100-character path parameter. */
const DOMAIN_MAX = 80;
const HOSTS = new Set(['bsky.app', 'www.bsky.app']);

export type BlueskyLink =
  | { kind: 'post'; did: string; rkey: string }
  | { kind: 'handle'; handle: string; rkey: string };

const plcDid = new RegExp(`^did:plc:(${PLC})$`);
const webDid = new RegExp(`^did:web:(${DOMAIN})$`);
const handleRe = new RegExp(`^${DOMAIN}$`);

/** A DID we can resolve (did:plc, or did:web on a default port); null otherwise. */
export function readDid(actor: string): string | null {
  const did = actor.toLowerCase();
  if (plcDid.test(did)) return did;
  const web = webDid.exec(did);
  return web && web[1].length <= DOMAIN_MAX ? did : null;
}

/** A cleaned link, or null when it is not a Bluesky post link. Pure. */
export function parseBlueskyLink(input: unknown): BlueskyLink | null {
  // The platform-neutral steps (http(s), no credentials or port, host lower-cased) are the shared rule's.
  const shape = linkShape(input);
  if (!shape) return null;
  const url = new URL(shape);
  if (!HOSTS.has(url.hostname)) return null;
  const m = new RegExp(`^/profile/([^/]{3,260})/post/(${RKEY})/?$`).exec(url.pathname);
  if (!m) return null;
  // Only ':' comes percent-encoded in a pasted DID link (did%3Aplc%3A...).
  const actor = m[1].replace(/%3a/gi, ':').toLowerCase();
  if (actor.startsWith('did:')) {
    const did = readDid(actor);
    return did ? { kind: 'post', did, rkey: m[2] } : null;
  }
  return handleRe.test(actor) && actor.length <= 253 ? { kind: 'handle', handle: actor, rkey: m[2] } : null;
}

/** A profile link (https://bsky.app/profile/<handle or DID>): the actor, or null. Pure. */
export function parseBlueskyProfileLink(input: unknown): { actor: string } | null {
  const shape = linkShape(input);
  if (!shape) return null;
  const url = new URL(shape);
  if (!HOSTS.has(url.hostname)) return null;
  const m = /^\/profile\/([^/]{3,260})\/?$/.exec(url.pathname);
  if (!m) return null;
  const actor = m[1].replace(/%3a/gi, ':').toLowerCase();
  if (actor.startsWith('did:')) {
    const did = readDid(actor);
    return did ? { actor: did } : null;
  }
  return handleRe.test(actor) && actor.length <= 253 ? { actor } : null;
}

/** The same rule over a link reduced by shared/platform-links.ts `linkShape` (host lower-cased, no query). */
const DID_SEP = '(?::|%3[Aa])';
const ANY_CASE_DOMAIN = DOMAIN.replaceAll('a-z', 'A-Za-z');
export const LINK_PATTERN = new RegExp(
  '^https?://(?:www\\.)?bsky\\.app/profile/(?:' +
    `[Dd][Ii][Dd]${DID_SEP}(?:[Pp][Ll][Cc]${DID_SEP}[A-Za-z2-7]{24}` +
    `|[Ww][Ee][Bb]${DID_SEP}(?=[A-Za-z0-9.-]{1,${DOMAIN_MAX}}/)${ANY_CASE_DOMAIN})` +
    `|(?=[A-Za-z0-9.-]{1,253}/)${ANY_CASE_DOMAIN})/post/${RKEY}/?$`,
);
const ACTOR =
  `(?:[Dd][Ii][Dd]${DID_SEP}(?:[Pp][Ll][Cc]${DID_SEP}[A-Za-z2-7]{24}` +
  `|[Ww][Ee][Bb]${DID_SEP}(?=[A-Za-z0-9.-]{1,${DOMAIN_MAX}}(?:/|$))${ANY_CASE_DOMAIN})` +
  `|(?=[A-Za-z0-9.-]{1,253}(?:/|$))${ANY_CASE_DOMAIN})`;
export const PROFILE_PATTERN = new RegExp(`^https?://(?:www\\.)?bsky\\.app/profile/${ACTOR}/?$`);
export const profileUrl = (actor: string) => `https://bsky.app/profile/${actor}`;
export const EXAMPLE_LINK = 'https://bsky.app/profile/someone.bsky.social/post/3lhnr2o6kb22h';

/** Our id of a post (see the top of this file). */
export function postId(did: string, rkey: string): string {
  return did.startsWith('did:plc:') ? `plc-${did.slice(8)}-${rkey}` : `web-${did.slice(8)}-${rkey}`;
}
export const ID_PATTERN = new RegExp(`^(?:plc-${PLC}|web-${DOMAIN})-${RKEY}$`);
/** The DID and record key of one of our ids; null when it is not one. */
export function readPostId(id: string): { did: string; rkey: string } | null {
  if (!ID_PATTERN.test(id)) return null;
  const rkey = id.slice(-13);
  const body = id.slice(4, -14);
  const did = id.startsWith('plc-') ? `did:plc:${body}` : `did:web:${body}`;
  return readDid(did) ? { did, rkey } : null;
}

export const postUrl = (actor: string, rkey: string) => `https://bsky.app/profile/${actor}/post/${rkey}`;
export const atUri = (actor: string, rkey: string) => `at://${actor}/app.bsky.feed.post/${rkey}`;

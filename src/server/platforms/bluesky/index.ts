// Bluesky as a Platform (issue 37): its link rule (link.ts; the client's fields get its pattern
// through GET /api/platforms), the public API (bluesky.adapter.ts: AppView, the author's PDS found
// through their DID document, the CDN) and its errors. Videos are the uploaded originals (getBlob),
// never the re-encoded HLS renditions (decision 0061).
import type { HttpClient } from '../../adapters/http/index.js';
import type { Platform } from '../platform.js';
import { createBlueskyAdapter } from './bluesky.adapter.js';
import { fail } from '../../errors.js';
import { BLUESKY, NAME } from './errors.js';
import {
  EXAMPLE_LINK,
  ID_PATTERN,
  LINK_PATTERN,
  PROFILE_PATTERN,
  parseBlueskyLink,
  parseBlueskyProfileLink,
  postId,
  postUrl,
  profileUrl,
  readPostId,
} from './link.js';
import { createProfileLister } from './profile.js';
import { createReplyLister } from './replies.js';

export function createBlueskyPlatform(deps: { http: HttpClient }): Platform {
  const adapter = createBlueskyAdapter(deps);
  return {
    id: 'bluesky',
    name: NAME,
    idPattern: ID_PATTERN,
    parseLink(input) {
      const link = parseBlueskyLink(input);
      if (!link) return null;
      // A handle names an account only for now: it is resolved to the DID, like a short link.
      return link.kind === 'post'
        ? { kind: 'video', id: postId(link.did, link.rkey), url: postUrl(link.did, link.rkey) }
        : { kind: 'short', url: postUrl(link.handle, link.rkey) };
    },
    linkPattern: LINK_PATTERN,
    separateSound: false, // the sound is in the uploaded MP4 only
    exampleUrl: EXAMPLE_LINK,
    canonicalUrl(id) {
      const key = readPostId(id); // ids reach here checked against idPattern
      if (!key) throw fail('video.not_found', BLUESKY);
      return postUrl(key.did, key.rkey);
    },
    resolveShortLink: adapter.resolveLink,
    fetchVideo: adapter.fetchVideo,
    openMedia: adapter.openMedia,
    parseProfileLink(input) {
      const link = parseBlueskyProfileLink(input);
      return link ? { platform: 'bluesky', actor: link.actor, url: profileUrl(link.actor) } : null;
    },
    profilePattern: PROFILE_PATTERN,
    listProfile: createProfileLister(adapter.appView),
    listReplies: createReplyLister(adapter.appView),
  };
}

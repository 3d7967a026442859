// Reddit as a Platform (issue 44): its link rule (link.ts; the client's fields get its pattern
// through GET /api/platforms), the post's JSON and its media (reddit.adapter.ts), the DASH
// manifest (dash.ts), the mapping to the neutral model (post-mapper.ts) and its errors (errors.ts).
// Videos are split (the video alone, the sound apart) and joined by the shared remux.
import type { HttpClient } from '../../adapters/http/index.js';
import type { Platform } from '../platform.js';
import type { Config } from '../../config.js';
import { createRedditAdapter, type RedditSettings } from './reddit.adapter.js';
import { NAME } from './errors.js';
import { EXAMPLE_LINK, ID_PATTERN, LINK_PATTERN, parseRedditLink, postUrl } from './link.js';

export type { RedditSettings } from './reddit.adapter.js';

/** Without the operator's own: the product's name and where it is (its contact), as Reddit asks. */
export const defaultUserAgent = (publicUrl = 'http://localhost') =>
  `web:social-media-toolkit:1.0 (self-hosted; +${publicUrl})`;

/** The operator's settings (config.ts REDDIT_*). */
export function redditSettings(config: Config): RedditSettings {
  return {
    clientId: config.REDDIT_CLIENT_ID,
    clientSecret: config.REDDIT_CLIENT_SECRET,
    over18: config.REDDIT_OVER_18,
    userAgent: config.REDDIT_USER_AGENT ?? defaultUserAgent(config.publicUrl),
  };
}

export function createRedditPlatform(deps: { http: HttpClient; settings?: Partial<RedditSettings> }): Platform {
  const settings: RedditSettings = { userAgent: defaultUserAgent(), ...deps.settings };
  const adapter = createRedditAdapter({ http: deps.http, settings });
  return {
    id: 'reddit',
    name: NAME,
    idPattern: ID_PATTERN,
    parseLink(input) {
      const link = parseRedditLink(input);
      if (!link) return null;
      // A share link, a v.redd.it address and a comment's link are followed (or refused) by the server.
      return link.kind === 'post'
        ? { kind: 'video', id: link.id, url: postUrl(link.id) }
        : { kind: 'short', url: link.url };
    },
    linkPattern: LINK_PATTERN,
    exampleUrl: EXAMPLE_LINK,
    canonicalUrl: postUrl,
    resolveShortLink: adapter.resolveLink,
    fetchVideo: adapter.fetchVideo,
    openMedia: adapter.openMedia,
  };
}

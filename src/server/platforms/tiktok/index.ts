// TikTok as a Platform (issue 19): its one link rule (link.ts; the client's fields get its
// pattern through GET /api/platforms), the web extractor (tiktok.adapter.ts) and its errors.
import type { HttpClient } from '../../adapters/http/index.js';
import { canonicalVideoUrl, EXAMPLE_LINK, LINK_PATTERN, MAX_VIDEO_ID_DIGITS, parseTikTokLink } from './link.js';
import type { Platform } from '../platform.js';
import { observationFromItemStruct } from './observation-mapper.js';
import { createTikTokAdapter } from './tiktok.adapter.js';
import { renewTikTokUrls } from './renew-urls.js';

export function createTikTokPlatform(deps: { http: HttpClient }): Platform {
  const adapter = createTikTokAdapter(deps);
  return {
    id: 'tiktok',
    name: 'TikTok',
    idPattern: new RegExp(`^\\d{1,${MAX_VIDEO_ID_DIGITS}}$`),
    parseLink(input) {
      const link = parseTikTokLink(input);
      if (!link) return null;
      return link.kind === 'video' ? { kind: 'video', id: link.id, url: link.url } : { kind: 'short', url: link.url };
    },
    linkPattern: LINK_PATTERN,
    exampleUrl: EXAMPLE_LINK,
    canonicalUrl: (id) => canonicalVideoUrl(id),
    resolveShortLink: adapter.resolveLink,
    fetchVideo: adapter.fetchVideo,
    openMedia: adapter.openMedia,
    observe: (video) => observationFromItemStruct(video.raw),
    renewUrls: (stale, fresh) => renewTikTokUrls(stale, fresh.raw),
  };
}

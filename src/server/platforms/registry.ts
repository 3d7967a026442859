// The only list of platforms (issue 19). Adding one: a folder platforms/<id>/ exporting a factory
// that returns a Platform, and one line in builtInPlatforms. docs/architecture.md has the recipe.
import type { HttpClient } from '../adapters/http/index.js';
import { fail } from '../errors.js';
import { DEFAULT_PLATFORM } from './default.js';
import { LINK_MAX } from '../../shared/platform-links.js';
import type { Platform, PlatformLink, ProfileRef } from './platform.js';
import { createTikTokPlatform } from './tiktok/index.js';
import { createBlueskyPlatform } from './bluesky/index.js';
import { createRedditPlatform, redditSettings } from './reddit/index.js';
import type { Config } from '../config.js';

/** `config`: the operator's settings a platform reads (its own variables); tests may leave it out. */
export function builtInPlatforms(deps: { http: HttpClient; config?: Config }): Platform[] {
  return [
    createTikTokPlatform(deps),
    createBlueskyPlatform(deps),
    createRedditPlatform({ http: deps.http, settings: deps.config && redditSettings(deps.config) }),
  ];
}

export { DEFAULT_PLATFORM };

export function createPlatformRegistry(platforms: Platform[]) {
  const byId = new Map(platforms.map((p) => [p.id, p]));
  return {
    all: platforms,
    /** The platform of an id; an unknown one is the caller's mistake. */
    get(id: string = DEFAULT_PLATFORM): Platform {
      const p = byId.get(id);
      if (!p) throw fail('link.unsupported', { variant: 'unknown_platform', id: id.slice(0, 40) });
      return p;
    },
    /** The platform that recognises a link, with the cleaned link; null when none does. */
    match(input: string): { platform: Platform; link: PlatformLink } | null {
      if (typeof input !== 'string' || input.length > LINK_MAX) return null;
      for (const platform of platforms) {
        const link = platform.parseLink(input);
        if (link) return { platform, link };
      }
      return null;
    },
    /** The platform that recognises a profile link, with the cleaned link; null when none does. */
    matchProfile(input: string): { platform: Platform; profile: ProfileRef } | null {
      if (typeof input !== 'string' || input.length > LINK_MAX) return null;
      for (const platform of platforms) {
        const profile = platform.parseProfileLink?.(input);
        if (profile) return { platform, profile };
      }
      return null;
    },
  };
}
export type PlatformRegistry = ReturnType<typeof createPlatformRegistry>;

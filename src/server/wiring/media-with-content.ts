// Services built from the media part and the text tools together: repost kits (a video with its
// rewritten texts and hashtags) and whole profiles (listed posts with their pictures relayed).
import { createProfilesService } from '../services/profiles.service.js';
import { createRepostKitFeature } from '../services/repost-kit/repost-kit.feature.js';
import type { createRepositories } from './repositories.js';
import type { createAdapters } from './adapters.js';
import type { createMediaServices } from './media.js';
import type { createContentServices } from './accounts-and-content.js';

export function createMediaWithContentServices(parts: {
  repos: ReturnType<typeof createRepositories>;
  adapters: ReturnType<typeof createAdapters>;
  media: ReturnType<typeof createMediaServices>;
  content: ReturnType<typeof createContentServices>;
}) {
  const { repos, adapters, media, content } = parts;
  return {
    repostKits: createRepostKitFeature({
      media: media.mediaFeature,
      video: media.services.video,
      quota: media.services.quota,
      projects: repos.captionProjects,
      content: content.services.content,
      hashtags: content.services.hashtags,
    }),
    profiles: createProfilesService({
      platforms: adapters.platforms,
      video: media.services.video,
      images: content.services.imageRelay,
    }),
  };
}

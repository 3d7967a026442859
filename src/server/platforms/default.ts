import { videoLinks } from '../../shared/api-paths.js';

// The platform of everything made before the platform seam (issue 19): rows stored before their
// `platform` column existed, media keys without a platform prefix, by-id links without ?platform=.
export const DEFAULT_PLATFORM = 'tiktok';

/** The by-id links of our own video routes: the default platform's carry no `?platform=`. */
export const VIDEO_LINKS = videoLinks(DEFAULT_PLATFORM);

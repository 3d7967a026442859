// The platform of everything made before the platform seam (issue 19): rows stored before their
// `platform` column existed, media keys without a platform prefix, by-id links without ?platform=.
export const DEFAULT_PLATFORM = 'tiktok';

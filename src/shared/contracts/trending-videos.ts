// The shared curated trending list (decision 0092 'Tables', 'Trending video rules', 'Ownership').
import { z } from 'zod';
import { optionalText, tagList, isHttpUrl } from './blog.js';

export const TRENDING_PLATFORMS = ['tiktok', 'instagram', 'facebook'] as const;
export type TrendingPlatform = (typeof TRENDING_PLATFORMS)[number];
export const TRENDING_STATUSES = ['active', 'inactive'] as const;
/** The downloader's thumbnail endpoint for a video id (GET /api/video/thumbnail/:id[?platform=]). */
export const OWN_THUMBNAIL_PATH = /^\/api\/video\/thumbnail\/[\w-]{1,64}(\?platform=[a-z0-9-]{1,40})?$/;
export const TRENDING_LIMITS = {
  title: 255,
  description: 5000,
  videoUrl: 500,
  thumbnailUrl: 500,
  author: 255,
  tags: 30,
  tag: 100,
} as const;

const count = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} must be at least 0`)
    .max(Number.MAX_SAFE_INTEGER, `${label} is too large`)
    .nullish()
    .transform((v) => v ?? 0);

export const createTrendingVideoRequest = z.object({
  title: z
    .string({ error: 'Title is required' })
    .trim()
    .min(1, 'Title is required')
    .max(TRENDING_LIMITS.title, `Title must be at most ${TRENDING_LIMITS.title} characters`),
  description: optionalText(TRENDING_LIMITS.description, 'Description'),
  videoUrl: z
    .string({ error: 'Video URL is required' })
    .trim()
    .min(1, 'Video URL is required')
    .max(TRENDING_LIMITS.videoUrl, `Video URL must be at most ${TRENDING_LIMITS.videoUrl} characters`)
    .refine(isHttpUrl, 'Video URL must be an http(s) URL'),
  platform: z.enum(TRENDING_PLATFORMS, { error: 'Platform must be one of tiktok, instagram, facebook' }),
  // Fetch Info gives this product's own thumbnail path (a platform's CDN links expire and need cookies).
  thumbnailUrl: optionalText(TRENDING_LIMITS.thumbnailUrl, 'Thumbnail URL').refine(
    (v) => v === null || isHttpUrl(v) || OWN_THUMBNAIL_PATH.test(v),
    'Thumbnail URL must be an http(s) URL',
  ),
  author: optionalText(TRENDING_LIMITS.author, 'Author'),
  // A leading '#' is dropped: the card shows tags as #tag.
  tags: tagList(TRENDING_LIMITS.tags, TRENDING_LIMITS.tag, /^#+/),
  status: z
    .enum(TRENDING_STATUSES, { error: 'Status must be active or inactive' })
    .nullish()
    .transform((v) => v ?? 'active'),
  viewCount: count('View count'),
  likeCount: count('Like count'),
});
export type CreateTrendingVideoRequest = z.input<typeof createTrendingVideoRequest>;

export const trendingVideo = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  videoUrl: z.string(),
  platform: z.string(),
  thumbnailUrl: z.string().nullable(),
  /** Where a page loads the thumbnail from: this site (a relay link for another host's picture). */
  thumbnailSrc: z.string().nullable(),
  author: z.string().nullable(),
  tags: z.array(z.string()),
  viewCount: z.number(),
  likeCount: z.number(),
  trendingScore: z.number().int(),
  curatedBy: z.string().nullable(),
  status: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Whether the signed-in user has already boosted it (a boost counts once per user). */
  boosted: z.boolean(),
});
export type TrendingVideo = z.infer<typeof trendingVideo>;
export const trendingVideoList = z.array(trendingVideo);

export const trendingListQuery = z.object({
  platform: z.enum(TRENDING_PLATFORMS, { error: 'Platform must be one of tiktok, instagram, facebook' }).optional(),
});

/** A boost sends the current score plus 1 (decision 0092 'Calls'); the server ignores it and adds 1 itself. */
export const boostRequest = z.object({ trendingScore: z.unknown().optional() }).loose().nullish();

export const trendingVideoIdParams = z.object({
  id: z.coerce
    .number({ error: 'Video id must be a number' })
    .int('Video id must be a number')
    .min(1)
    .max(2_147_483_647),
});

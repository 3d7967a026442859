// POST /api/content/optimize (signed in): decision 0092 'Content optimise input' and 'Tool results'.
import { z } from 'zod';
import { engineSource } from './hashtags.js';

export const CONTENT_PLATFORMS = ['tiktok', 'instagram', 'youtube', 'linkedin'] as const;
export type ContentPlatform = (typeof CONTENT_PLATFORMS)[number];
/** Decision 0092 'Constants': the default share platforms (shared schema default). The screen offers tiktok only. */
export const DEFAULT_SHARE_PLATFORMS: ContentPlatform[] = ['instagram', 'youtube', 'linkedin'];
export const CONTENT_MAX = 10_000;
// Decision 0092 'Content optimise input' wording (the screen shows the same text as a toast).
export const CONTENT_REQUIRED = 'Content required - Please enter some content to optimize';

export const contentPlatform = z.enum(CONTENT_PLATFORMS, {
  error: `Please choose a valid platform: ${CONTENT_PLATFORMS.join(', ')}`,
});

export const optimizeRequest = z.object({
  content: z
    .string({ error: CONTENT_REQUIRED })
    .trim()
    .min(1, CONTENT_REQUIRED)
    .max(CONTENT_MAX, `Content is too long (max ${CONTENT_MAX.toLocaleString('en-US')} characters)`),
  platforms: z
    .array(contentPlatform)
    .min(1, 'Platform required - Please select at least one platform')
    .max(CONTENT_PLATFORMS.length)
    .default(DEFAULT_SHARE_PLATFORMS)
    // The same platform twice is one result.
    .transform((list) => [...new Set(list)]),
});
export type OptimizeRequest = z.input<typeof optimizeRequest>;
export type OptimizeInput = z.output<typeof optimizeRequest>;

export const platformOptimization = z.object({
  platform: contentPlatform,
  optimizedCaption: z.string(),
  hashtags: z.array(z.string()),
  tips: z.array(z.string()),
  bestPostingTimes: z.array(z.string()),
  characterLimit: z.number().int(),
});
export type PlatformOptimization = z.infer<typeof platformOptimization>;

export const optimizeResponse = z.object({
  platforms: z.array(platformOptimization),
  source: engineSource,
});
export type OptimizeResult = z.infer<typeof optimizeResponse>;

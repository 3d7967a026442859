// GET /api/trends/analysis (Pro): the shape of decision 0092 'Trends analysis', plus where each section
// came from and when. A field no source gives is null (the screen shows '—'), never invented.
import { z } from 'zod';

export const TREND_CATEGORIES = [
  'Dance',
  'Music',
  'Comedy',
  'Food',
  'Fashion',
  'Educational',
  'Entertainment',
  'General',
  'Lifestyle',
  'Pets',
] as const;
export const NEWS_CATEGORIES = ['creator', 'platform', 'music', 'viral', 'business'] as const;

export const trendCategorySchema = z.enum(TREND_CATEGORIES);
export const newsCategorySchema = z.enum(NEWS_CATEGORIES);
export type TrendCategory = z.infer<typeof trendCategorySchema>;
export type NewsCategory = z.infer<typeof newsCategorySchema>;

/** How a growth figure was computed (see docs/decisions/0701-trend-growth.md). */
export const growthBasisSchema = z.enum(['snapshots_24h', 'curve_day_over_day', 'observations_24h_vs_6d']);

const num = z.number().nullable();

export const trendingHashtagSchema = z.object({
  hashtag: z.string(),
  category: trendCategorySchema,
  views: num,
  growth: num,
  /** Posts using the tag (TikTok One `publishCnt`) or videos observed here carrying it. */
  posts: num,
  growthBasis: growthBasisSchema.nullable(),
  source: z.string(),
});

export const trendingSongSchema = z.object({
  title: z.string(),
  artist: z.string().nullable(),
  genre: z.string().nullable(),
  uses: num,
  duration: num,
});

export const trendingCreatorSchema = z.object({
  username: z.string(),
  category: trendCategorySchema,
  verified: z.boolean().nullable(),
  followers: num,
  recentViews: num,
});

export const trendingVideoSchema = z.object({
  title: z.string(),
  creator: z.string().nullable(),
  category: trendCategorySchema,
  hashtags: z.array(z.string()),
  views: num,
  likes: num,
});

export const newsItemSchema = z.object({
  title: z.string(),
  summary: z.string().nullable(),
  category: newsCategorySchema,
  source: z.string(),
  timestamp: z.string(),
  url: z.string().nullable(),
});

export const sectionSourceSchema = z.object({
  /** Human label, e.g. 'TikTok One (US, last 7 days)'; null when no source has data. */
  source: z.string().nullable(),
  collectedAt: z.string().nullable(),
});

export const platformAnalyticsSchema = z.object({
  /** Likes over views of the videos observed in the period, in percent. */
  engagementRate: num,
  /** Change in percentage points against the previous period of the same length. */
  engagementChange: num,
  videos: z.number().int(),
  periodStart: z.string(),
  periodEnd: z.string(),
});

export const collectorStatusSchema = z.object({
  source: z.string(),
  lastRunAt: z.string().nullable(),
  items: z.number().int(),
  error: z.string().nullable(),
});

export const trendsAnalysisResponse = z.object({
  last_updated: z.string().nullable(),
  insights: z.array(z.string()),
  trending_hashtags: z.array(trendingHashtagSchema),
  trending_songs: z.array(trendingSongSchema),
  trending_creators: z.array(trendingCreatorSchema),
  trending_videos: z.array(trendingVideoSchema),
  tiktok_news: z.array(newsItemSchema),
  sources: z.object({
    trending_hashtags: sectionSourceSchema,
    trending_songs: sectionSourceSchema,
    trending_creators: sectionSourceSchema,
    trending_videos: sectionSourceSchema,
    tiktok_news: sectionSourceSchema,
  }),
  platform_analytics: platformAnalyticsSchema,
  collectors: z.array(collectorStatusSchema),
});

export type TrendsAnalysis = z.infer<typeof trendsAnalysisResponse>;
export type TrendingHashtag = z.infer<typeof trendingHashtagSchema>;
export type TrendingSong = z.infer<typeof trendingSongSchema>;
export type TrendingCreator = z.infer<typeof trendingCreatorSchema>;
export type TrendVideoItem = z.infer<typeof trendingVideoSchema>;
export type TrendNewsItem = z.infer<typeof newsItemSchema>;
export type SectionSource = z.infer<typeof sectionSourceSchema>;

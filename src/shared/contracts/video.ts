import { z } from 'zod';

export const TIKTOK_URL_MESSAGE = 'Please provide a valid TikTok URL';

const tiktokUrl = z
  .string({ error: TIKTOK_URL_MESSAGE })
  .trim()
  .min(1, TIKTOK_URL_MESSAGE)
  .max(2048, TIKTOK_URL_MESSAGE);

export const videoInfoRequest = z.object({ url: tiktokUrl });
export type VideoInfoRequest = z.infer<typeof videoInfoRequest>;

export const downloadOption = z.object({
  quality: z.string(),
  // 'h264': one muxed MP4 that plays everywhere; 'hevc': sharper, remuxed with its sound (decision 0014).
  codec: z.enum(['h264', 'hevc']).optional(),
  resolution: z.string(), // '576x1024', or 'Unknown' when TikTok gives no size
  size: z.number().int().nullable(), // bytes; null = unknown
  url: z.string(), // this product's own endpoint, never TikTok's CDN
});
export type DownloadOption = z.infer<typeof downloadOption>;

/** SPEC 3 'Video info'. */
export const videoInfo = z.object({
  url: z.string(),
  videoId: z.string(),
  title: z.string(),
  author: z.string(),
  thumbnail: z.string().nullable(),
  videoUrl: z.string(), // inline preview through this product's stream endpoint
  duration: z.number().int(),
  views: z.number(),
  likes: z.number(),
  downloadOptions: z.array(downloadOption),
});
export type VideoInfo = z.infer<typeof videoInfo>;

export const videoDownloadRequest = z.object({
  url: tiktokUrl,
  quality: z.string().trim().max(10, 'Unknown quality').default('hd'),
});
export type VideoDownloadRequest = z.infer<typeof videoDownloadRequest>;

export const recentDownload = z.object({
  id: z.number().int(),
  url: z.string(),
  videoId: z.string().nullable(),
  title: z.string().nullable(),
  author: z.string().nullable(),
  thumbnail: z.string().nullable(),
  duration: z.number().int().nullable(),
  views: z.number().nullable(),
  likes: z.number().nullable(),
  quality: z.string().nullable(),
  createdAt: z.string(),
});
export type RecentDownload = z.infer<typeof recentDownload>;
export const recentDownloadsResponse = z.array(recentDownload);

export const clearDownloadsResponse = z.object({ cleared: z.number().int() });

import { z } from 'zod';
import { DEFAULT_QUALITY } from '../constants.js';

import { linkField } from './common.js';

export const videoInfoRequest = z.object({ url: linkField });
export type VideoInfoRequest = z.infer<typeof videoInfoRequest>;

export const downloadOption = z.object({
  // Videos: '1080p', 'hd', 'sd'...; photo posts: 'images' (a ZIP of the slides) and 'slideshow' (an MP4).
  quality: z.string(),
  // 'h264': one muxed MP4 that plays everywhere; 'hevc': sharper, remuxed with its sound (decision 0014).
  codec: z.enum(['h264', 'hevc']).optional(),
  resolution: z.string(), // '576x1024', or 'Unknown' when the platform gives no size
  size: z.number().int().nullable(), // bytes; null = unknown
  url: z.string(), // this product's own endpoint, never the platform's CDN
  // 'sound' only: the post's sound as the platform stores it ('m4a' AAC or 'mp3'), copied, never re-encoded.
  format: z.enum(['m4a', 'mp3']).optional(),
  bitrate: z.number().int().nullable().optional(), // bits/s when the platform says
  // True when the post has no sound at all: the file is the video alone (issue 44).
  silent: z.boolean().optional(),
});
export type DownloadOption = z.infer<typeof downloadOption>;

/** A photo post's slide, served by this product byte for byte (the platform's links are signed and expire). */
export const photoSlide = z.object({
  url: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});
export type PhotoSlide = z.infer<typeof photoSlide>;

/** The post's pictures as downloads through this product (issue 28): cover, animated cover, author's avatar. */
export const postPicture = z.object({
  kind: z.enum(['cover', 'animated-cover', 'avatar']),
  url: z.string(), // `?download=1` saves it as a file
});
export type PostPicture = z.infer<typeof postPicture>;

/** Decision 0092 'Video info', plus mediaType and, for photo posts, the slides (issue 20). */
export const videoInfo = z.object({
  url: z.string(),
  platform: z.string(), // the registry id; by-id links of platforms but the default carry ?platform=
  videoId: z.string(),
  title: z.string(),
  author: z.string(),
  thumbnail: z.string().nullable(),
  videoUrl: z.string(), // inline preview through this product's stream endpoint
  duration: z.number().int(),
  views: z.number(),
  likes: z.number(),
  downloadOptions: z.array(downloadOption),
  mediaType: z.enum(['video', 'photo']),
  images: z.array(photoSlide).optional(),
  pictures: z.array(postPicture).optional(),
});
export type VideoInfo = z.infer<typeof videoInfo>;

export const videoDownloadRequest = z.object({
  url: linkField,
  quality: z.string().trim().max(10, 'Unknown quality').default(DEFAULT_QUALITY),
});
export type VideoDownloadRequest = z.infer<typeof videoDownloadRequest>;

/**
 * `t`: the key on a link that spends a download or starts media work, made for the signed-in person
 * (`POST /api/video/info` option and preview links, `POST /api/video/link`). Needed when the request
 * carries no Fetch Metadata (curl, or any browser on a plain-http address); expires (decision 0082).
 */
export const spendKeyQuery = z.object({ t: z.string().max(100).optional() });
/** `POST /api/video/link`: the `GET /api/video/download` link for that body, keyed for the person. */
export const videoLinkResponse = z.object({ url: z.string() });

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

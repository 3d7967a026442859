// Whole profiles and a post's replies (issue 45): a profile link lists the account's posts with
// media page by page (the platform's cursor passed back as it came); a post's replies as a CSV or JSON
// file (Pro). Shared with the client.
import { z } from 'zod';

export const PROFILE_CURSOR_MAX = 512;

export const profilePostsRequest = z.object({
  url: z.string().trim().min(1, 'Paste a profile link').max(2048, 'A link is too long'),
  cursor: z.string().max(PROFILE_CURSOR_MAX, 'Invalid page').optional(),
  /** Include the posts the account reposted (left out by default). */
  reposts: z.boolean().optional(),
});
export type ProfilePostsRequest = z.infer<typeof profilePostsRequest>;

export const listedPost = z.object({
  id: z.string(),
  url: z.string(),
  text: z.string(),
  createdAt: z.string().nullable(),
  kind: z.enum(['video', 'images']),
  /** Through this product's image relay; null when the post has none. */
  thumbnail: z.string().nullable(),
  repost: z.boolean(),
});
export type ListedPost = z.infer<typeof listedPost>;

export const profilePostsResponse = z.object({
  platform: z.string(),
  profileUrl: z.string(),
  author: z.object({ handle: z.string(), name: z.string().nullable(), avatar: z.string().nullable() }),
  posts: z.array(listedPost),
  /** The next page's cursor; null at the end. */
  cursor: z.string().nullable(),
});
export type ProfilePostsResponse = z.infer<typeof profilePostsResponse>;

export const repliesExportRequest = z.object({
  url: z.string().trim().min(1, 'Paste a post link').max(2048, 'A link is too long'),
  format: z.enum(['csv', 'json'], { error: "The format is 'csv' or 'json'" }),
});
export type RepliesExportRequest = z.infer<typeof repliesExportRequest>;

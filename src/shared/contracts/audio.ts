import { z } from 'zod';

/** An http(s) URL; which platform it belongs to is the server's one link rule (platforms/registry.ts). */
const isHttpUrl = (value: string): boolean => {
  try {
    return /^https?:$/.test(new URL(value.trim()).protocol);
  } catch {
    return false;
  }
};

export const audioExtractRequest = z.object({
  url: z
    .string({ error: 'URL required - Please enter a TikTok URL to extract audio' })
    .trim()
    .min(1, 'URL required - Please enter a TikTok URL to extract audio')
    .max(2000, 'Please enter a valid TikTok URL')
    .refine(isHttpUrl, 'Please enter a valid TikTok URL'),
});
export type AudioExtractRequest = z.infer<typeof audioExtractRequest>;

export const audioResultSchema = z.object({
  title: z.string(),
  author: z.string(),
  duration: z.number(), // seconds
  size: z.string().regex(/^\d+$/), // exact byte count
  audioUrl: z.string(), // expiring signed link served by this product
});
export type AudioResult = z.infer<typeof audioResultSchema>;

import { z } from 'zod';

/** SPEC 5 'Audio': http(s) on tiktok.com, www., vm., m. or vt. */
export function isAudioTikTokUrl(value: string): boolean {
  try {
    const u = new URL(value.trim());
    return /^https?:$/.test(u.protocol) && /^((www|vm|m|vt)\.)?tiktok\.com$/i.test(u.hostname);
  } catch {
    return false;
  }
}

export const audioExtractRequest = z.object({
  url: z
    .string({ error: 'URL required - Please enter a TikTok URL to extract audio' })
    .trim()
    .min(1, 'URL required - Please enter a TikTok URL to extract audio')
    .max(2000, 'Please enter a valid TikTok URL')
    .refine(isAudioTikTokUrl, 'Please enter a valid TikTok URL'),
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

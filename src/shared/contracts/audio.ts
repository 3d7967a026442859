import { z } from 'zod';
import { linkField } from './common.js';

export const audioExtractRequest = z.object({ url: linkField });
export type AudioExtractRequest = z.infer<typeof audioExtractRequest>;

export const audioResultSchema = z.object({
  title: z.string(),
  author: z.string(),
  duration: z.number(), // seconds
  size: z.string().regex(/^\d+$/), // exact byte count
  audioUrl: z.string(), // expiring signed link served by this product
});
export type AudioResult = z.infer<typeof audioResultSchema>;

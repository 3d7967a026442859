// Batch downloads (issue 21, Pro): many links at once, each item a download of its own, kept in
// the media store until the batch expires; one ZIP of every finished file.
import { z } from 'zod';

export const BATCH_MAX_URLS = 50;

export const batchCreateRequest = z.object({
  urls: z
    .array(z.string().trim().max(2048, 'A link is too long'), { error: 'Paste at least one video link' })
    .min(1, 'Paste at least one video link')
    .max(BATCH_MAX_URLS, `At most ${BATCH_MAX_URLS} links per batch`),
  quality: z.string().trim().max(10, 'Unknown quality').optional(),
});
export type BatchCreateRequest = z.infer<typeof batchCreateRequest>;

export const batchItemStatus = z.enum(['queued', 'running', 'done', 'failed']);
export const batchStatus = z.enum(['queued', 'running', 'done', 'partial', 'failed']);

export const batchItem = z.object({
  url: z.string(),
  status: batchItemStatus,
  title: z.string().optional(),
  /** Place in the queue while queued (1 = next). */
  position: z.number().int().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type BatchItem = z.infer<typeof batchItem>;

export const batchView = z.object({
  id: z.string(),
  status: batchStatus,
  createdAt: z.string(),
  expiresAt: z.string(),
  items: z.array(batchItem),
  /** A signed, expiring link to a ZIP of every finished file, once nothing is waiting. */
  downloadUrl: z.string().optional(),
});
export type BatchView = z.infer<typeof batchView>;

export const batchCreated = z.object({
  id: z.string(),
  items: z.array(batchItem.pick({ url: true, status: true, error: true })),
});
export const batchList = z.array(
  batchView.omit({ items: true }).extend({ total: z.number().int(), done: z.number().int(), failed: z.number().int() }),
);
export type BatchList = z.infer<typeof batchList>;

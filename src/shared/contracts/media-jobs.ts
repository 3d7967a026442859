import { z } from 'zod';

/**
 * Where a media job (audio extraction, captions) stands. The tools' POST answers 202 with this
 * when the request says `Prefer: respond-async` and the result is not ready at once; the client
 * then reads GET /api/media-jobs/:id until it is done and asks again for the result (kept by then).
 */
export const mediaJobSchema = z.object({
  id: z.string(),
  state: z.enum(['queued', 'running', 'done', 'failed']),
  /** While queued: 1 = next to run. */
  position: z.number().int().min(1).optional(),
  /** While running, where the work reports it (a burn-in render: percent of the video encoded). */
  progress: z.number().min(0).max(100).optional(),
  /** Once done: the stored file, as a link this product signed (a render's video, an MP3). */
  result: z.object({ url: z.string(), size: z.string(), expiresAt: z.string() }).optional(),
  /**
   * Once done, for a result made of several files (a repost kit: one part per target): each part's
   * files, each as its own signed link, or why the part could not be made.
   */
  parts: z
    .array(
      z.object({
        name: z.string(),
        files: z.array(z.object({ name: z.string(), url: z.string(), size: z.string() })),
        error: z.object({ code: z.string(), message: z.string() }).optional(),
      }),
    )
    .optional(),
  /** As in the API's error envelope: the catalogue code, its English text and the template's params. */
  error: z
    .object({
      code: z.string(),
      message: z.string(),
      params: z.record(z.string(), z.union([z.string(), z.number()]).optional()).optional(),
    })
    .optional(),
});
export type MediaJobView = z.infer<typeof mediaJobSchema>;

export const mediaJobParams = z.object({ id: z.string().uuid('Unknown job') });

/**
 * GET /api/media-jobs/:id?wait=<ms>&seen=<state:progress>: a long poll that answers as soon as the
 * job is no longer as the client last saw it (at most 25 s), so a page learns of progress and of the
 * result at once instead of on its next poll.
 */
export const mediaJobStatusQuery = z.object({
  wait: z.coerce.number().int().min(0).max(25_000).optional(),
  seen: z.string().max(40).optional(),
});

export { RESPOND_ASYNC } from '../respond-async.js';
export { mediaJobToken } from '../media-job-token.js';

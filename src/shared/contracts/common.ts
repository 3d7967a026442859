import { z } from 'zod';

/**
 * A pasted link, as every tool takes it. Only its type is checked here: whether a platform knows it
 * is the server's one link rule (platforms/registry.ts), which refuses a missing, malformed, too long
 * or unknown link with one message naming the platforms (`link.unsupported`, issue 31).
 */
export const linkField = z.preprocess((v) => (typeof v === 'string' ? v : ''), z.string().trim());

/**
 * The one API error envelope: the catalogue code (shared/error-messages.ts), its English text and
 * the template's params; some codes add fields (a batch's `retryAfter`...). The client reads it
 * into its `ApiError` (client/lib/api-error.ts).
 */
export const apiErrorSchema = z
  .object({
    message: z.string(),
    code: z.string(),
    params: z.record(z.string(), z.union([z.string(), z.number()]).optional()).optional(),
  })
  .loose();
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

/** The answer of a DELETE that removed what it named. */
export const deletedResponse = z.object({ success: z.literal(true) });

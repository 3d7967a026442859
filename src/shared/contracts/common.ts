import { z } from 'zod';

/**
 * A pasted link, as every tool takes it. Only its type is checked here: whether a platform knows it
 * is the server's one link rule (platforms/registry.ts), which refuses a missing, malformed, too long
 * or unknown link with one message naming the platforms (`link.unsupported`, issue 31).
 */
export const linkField = z.preprocess((v) => (typeof v === 'string' ? v : ''), z.string().trim());

/** The one API error envelope. */
export const apiErrorSchema = z.object({ message: z.string(), code: z.string() }).loose();
export type ApiError = z.infer<typeof apiErrorSchema>;

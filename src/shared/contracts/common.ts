import { z } from 'zod';

/** The one API error envelope. */
export const apiErrorSchema = z.object({ message: z.string(), code: z.string() }).loose();
export type ApiError = z.infer<typeof apiErrorSchema>;

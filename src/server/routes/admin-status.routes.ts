// Administrators only: what this server can do and what to set up for the rest (setup hints live
// here and in the log, never in a creator's toast).
import { z } from 'zod';
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';

const adminStatus = z.object({
  transcription: z.array(z.object({ id: z.string(), available: z.boolean(), hint: z.string().nullable() })),
});

export function adminStatusRoutes(app: ZApp, ctx: RouteContext) {
  app.get(
    '/api/admin/status',
    { preHandler: ctx.guards.admin, config: { errors: [] }, schema: { response: { 200: adminStatus } } },
    async () => ({
      transcription: ctx.services.transcription.engines(),
    }),
  );
}

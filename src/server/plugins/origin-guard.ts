// CSRF defence: a state-changing /api request must carry an Origin of this site.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function registerOriginGuard(app: FastifyInstance, opts: { publicUrl: string; exempt: string[] }): void {
  const publicOrigin = new URL(opts.publicUrl).origin;
  app.addHook('onRequest', async (request) => {
    if (SAFE.has(request.method) || !request.url.startsWith('/api/')) return;
    if (opts.exempt.some((p) => request.url.startsWith(p))) return;
    const origin = request.headers.origin;
    const own = `${request.protocol}://${request.host}`;
    if (!origin || (origin !== publicOrigin && origin !== own)) {
      throw new AppError(403, 'auth.bad_origin', 'This request did not come from this site and was refused.');
    }
  });
}

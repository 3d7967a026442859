// CSRF defence: every state-changing request must carry an Origin of this site. It applies to every
// non-safe method, whatever the path looks like: the router decodes `%61pi` into `api`, so a test
// on the raw URL string would let an encoded path through. Exemptions match the routed pattern.
import type { FastifyInstance } from 'fastify';
import { fail } from '../errors.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function registerOriginGuard(app: FastifyInstance, opts: { publicUrl: string; exempt: string[] }): void {
  const publicOrigin = new URL(opts.publicUrl).origin;
  app.addHook('onRequest', async (request) => {
    if (SAFE.has(request.method)) return;
    const route = request.routeOptions.url;
    if (route && opts.exempt.some((p) => route.startsWith(p))) return;
    const origin = request.headers.origin;
    const own = `${request.protocol}://${request.host}`;
    if (!origin || (origin !== publicOrigin && origin !== own)) {
      throw fail('auth.bad_origin');
    }
  });
}

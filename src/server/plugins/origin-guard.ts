// CSRF defence: every state-changing request must carry an Origin of this site. It applies to every
// non-safe method, whatever the path looks like: the router decodes `%61pi` into `api`, so a test
// on the raw URL string would let an encoded path through. Exemptions match the routed pattern.
// "This site" is PUBLIC_URL only: an Origin merely equal to the request's own Host proves nothing,
// since whoever reaches the port chooses both (issue 31).
import type { FastifyInstance } from 'fastify';
import { fail } from '../errors.js';
import { siteOrigin } from '../lib/site-origin.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function registerOriginGuard(app: FastifyInstance, opts: { publicUrl: string; exempt: string[] }): void {
  const site = siteOrigin(opts.publicUrl);
  app.addHook('onRequest', async (request) => {
    if (SAFE.has(request.method)) return;
    const route = request.routeOptions.url;
    if (route && opts.exempt.some((p) => route.startsWith(p))) return;
    if (!site.isOwnOrigin(request.headers.origin)) throw fail('auth.bad_origin');
  });
}

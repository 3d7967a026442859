// CSRF defence: every state-changing request must carry an Origin of this site. It applies to every
// non-safe method, whatever the path looks like: the router decodes `%61pi` into `api`, so a test
// on the raw URL string would let an encoded path through. Exemptions match the routed pattern.
// "This site" is PUBLIC_URL only: an Origin merely equal to the request's own Host proves nothing,
// since whoever reaches the port chooses both (issue 31). A script sends any Origin it likes, so
// while PUBLIC_URL is this machine (localhost), a state-changing request must also come from this
// machine: its socket's peer address, which no header changes (issue 34, decision 0049).
import type { FastifyInstance } from 'fastify';
import { fail } from '../errors.js';
import { isLoopbackAddress, siteOrigin } from '../lib/site-origin.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function registerOriginGuard(
  app: FastifyInstance,
  opts: { publicUrl: string; exempt: string[]; loopbackPeersOnly: boolean },
): void {
  const site = siteOrigin(opts.publicUrl);
  app.addHook('onRequest', async (request) => {
    if (SAFE.has(request.method)) return;
    const route = request.routeOptions.url;
    if (route && opts.exempt.some((p) => route.startsWith(p))) return;
    if (!site.isOwnOrigin(request.headers.origin)) throw fail('auth.bad_origin');
    if (opts.loopbackPeersOnly && !isLoopbackAddress(request.raw.socket.remoteAddress))
      throw fail('auth.this_machine_only', { publicUrl: opts.publicUrl });
  });
}

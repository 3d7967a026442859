// GET requests that spend a download or start media work (issue 34, decision 0046; issue 42,
// decision 0082). A GET is "safe" for the Origin check and for the browser, which sends one on its
// own for an <img>, a prefetch or a CSS background, and on another site's say for a top-level
// navigation (window.open, location=, a GET form, a meta refresh), with the person's Lax cookie.
// Such a GET is served only when the person asked for it:
//   - Fetch Metadata present (https, or localhost): a top-level navigation of this site or typed
//     in (Sec-Fetch-Site same-origin / none, Sec-Fetch-Mode `navigate`, dest `document` or `empty`:
//     a click, an <a download>, the address bar), or for a media route the media element of our
//     own page (dest `video` or `audio`); another site (cross-site, same-site) is refused first.
//   - No Fetch Metadata: a browser sends none to a plain-http address (a LAN name), so there
//     another site's navigation looks like curl. Only a link carrying a key made for this person
//     by this site (lib/spend-links.ts) is served; scripts mint one the same way (decision 0082).
import type { FastifyRequest } from 'fastify';
import type { User } from '../db/repositories/users.repository.js';
import { fail } from '../errors.js';
import { guard } from './route-errors.js';
import type { SpendLinks } from '../lib/spend-links.js';

const NAVIGATION_DESTS = new Set(['document', 'empty']);
const MEDIA_DESTS = new Set(['video', 'audio']);

export interface PersonAskedDeps {
  links: SpendLinks;
  currentUser(request: FastifyRequest): Promise<User | null>;
}

/** A preHandler refusing a spending GET the person did not ask for; `media`: a media element may. */
export function personAsked(deps: PersonAskedDeps, opts: { media?: boolean } = {}) {
  // A guard: the OpenAPI description lists its answers on every route it guards (route-errors.ts).
  const codes = ['auth.bad_origin', 'request.not_navigation', 'request.unkeyed_link'] as const;
  return guard(codes, async (request: FastifyRequest) => {
    const header = (name: string) => {
      const v = request.headers[name];
      return typeof v === 'string' ? v.toLowerCase() : undefined;
    };
    const site = header('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'none') throw fail('auth.bad_origin');
    if (site === undefined) {
      // Signed out: nothing can be spent; the sign-in guard after this one answers.
      const user = await deps.currentUser(request);
      if (!user) return;
      const verdict = deps.links.check(user.id, request.url);
      if (verdict === 'ok') return;
      throw verdict === 'expired' ? fail('request.unkeyed_link', { variant: 'expired' }) : fail('request.unkeyed_link');
    }
    const mode = header('sec-fetch-mode');
    const dest = header('sec-fetch-dest') ?? '';
    if (mode === 'navigate' && NAVIGATION_DESTS.has(dest)) return;
    if (opts.media && MEDIA_DESTS.has(dest)) return;
    throw fail('request.not_navigation');
  });
}

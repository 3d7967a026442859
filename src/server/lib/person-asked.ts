// GET requests that spend a download or start media work (issue 34, decision 0046). A GET is "safe"
// for the Origin check and for the browser, which sends one on its own for an <img>, a prefetch or
// a CSS background: a picture in a public post must not spend its readers' downloads. Such a GET
// is served only when the person asked for it, as the browser's Fetch Metadata says:
//   - a top-level navigation (Sec-Fetch-Mode `navigate` to a document, or a download: dest `empty`),
//     e.g. clicking a link or an <a download>, or typing the address;
//   - for a media route, the media element of our own page (dest `video` or `audio`);
//   - a client that is no browser, which sends no Sec-Fetch-Site (curl, scripts with their own
//     cookie; Node's fetch sends a lone `Sec-Fetch-Mode: cors`): no browser acts for anyone there,
//     and a page cannot strip the header from a browser's request (every browser that sends Fetch
//     Metadata sends Sec-Fetch-Site).
// Anything another site started is refused first (Sec-Fetch-Site other than same-origin or none).
import type { FastifyRequest } from 'fastify';
import { fail } from '../errors.js';
import { guard } from '../plugins/route-errors.js';

const NAVIGATION_DESTS = new Set(['document', 'empty']);
const MEDIA_DESTS = new Set(['video', 'audio']);

/** A preHandler refusing a spending GET the person did not ask for; `media`: a media element may. */
export function personAsked(opts: { media?: boolean } = {}) {
  // A guard: the OpenAPI description lists its answers on every route it guards (route-errors.ts).
  return guard(['auth.bad_origin', 'request.not_navigation'], async (request: FastifyRequest) => {
    const header = (name: string) => {
      const v = request.headers[name];
      return typeof v === 'string' ? v.toLowerCase() : undefined;
    };
    const site = header('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'none') throw fail('auth.bad_origin');
    if (site === undefined) return;
    const mode = header('sec-fetch-mode');
    const dest = header('sec-fetch-dest') ?? '';
    if (mode === 'navigate' && NAVIGATION_DESTS.has(dest)) return;
    if (opts.media && MEDIA_DESTS.has(dest)) return;
    throw fail('request.not_navigation');
  });
}

// Stored results behind expiring signed links: GET /api/media/<kind>/<file>?exp=..&sig=..
// The signature is the permission (plain <a download> links work); Range is supported for players.
import { z } from 'zod';
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import { API_PATHS } from '../../shared/api-paths.js';
import { downloadHeaders } from '../lib/download-headers.js';

const query = z.object({
  exp: z.coerce.number({ error: 'This download link is not valid.' }).int('This download link is not valid.'),
  sig: z.string({ error: 'This download link is not valid.' }).min(1, 'This download link is not valid.').max(100),
});
const params = z.object({
  kind: z.string().regex(/^[a-z0-9-]+$/, 'This download link is not valid.'),
  file: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/i, 'This download link is not valid.'),
});

export function mediaRoutes(app: ZApp, ctx: RouteContext) {
  app.get(
    API_PATHS.mediaResult,
    {
      config: { errors: ['media.link_invalid', 'media.link_expired', 'media.range', 'not_found'] },
      schema: { querystring: query, params },
    },
    async (request, reply) => {
      const { kind, file } = request.params;
      const media = await ctx.services.mediaResults.open(
        `${kind}/${file}`,
        request.query.exp,
        request.query.sig,
        request.headers.range,
      );
      reply
        .headers(
          downloadHeaders({ fileName: media.fileName, contentType: media.contentType, cache: 'private, max-age=3600' }),
        )
        .header('accept-ranges', 'bytes');
      if (media.range) {
        reply
          .status(206)
          .header('content-range', `bytes ${media.range.start}-${media.range.end}/${media.size}`)
          .header('content-length', String(media.range.end - media.range.start + 1));
      } else {
        reply.header('content-length', String(media.size));
      }
      return reply.send(media.stream);
    },
  );
}

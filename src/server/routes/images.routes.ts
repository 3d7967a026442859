// Pictures from other sites, relayed (services/image-relay.ts): only links this server signed.
import { z } from 'zod';
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import { API_PATHS } from '../../shared/api-paths.js';

const relayQuery = z.object({ u: z.string().min(1).max(2000), s: z.string().min(1).max(64) });

export function imagesRoutes(app: ZApp, ctx: RouteContext) {
  app.get(
    API_PATHS.images,
    {
      config: {
        errors: [
          'not_found',
          'upstream.unavailable',
          'upstream.timeout',
          'upstream.too_large',
          'upstream.blocked',
          'upstream.not_media',
        ],
      },
      schema: { querystring: relayQuery },
    },
    async (request, reply) => {
      const image = await ctx.services.imageRelay.open(request.query.u, request.query.s);
      return reply
        .headers({
          'content-type': image.contentType,
          'cache-control': 'public, max-age=86400',
          'x-content-type-options': 'nosniff',
        })
        .send(image.body);
    },
  );
}

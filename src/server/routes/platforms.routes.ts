// GET /api/platforms: the registered video platforms and their link shapes, for the client's link
// fields and texts (issue 30). Public and static for the life of the process.
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import { platformsResponse } from '../../shared/contracts/platforms.js';

export function platformsRoutes(app: ZApp, ctx: RouteContext) {
  const list = ctx.services.platforms.list();
  app.get(
    '/api/platforms',
    { config: { errors: [] }, schema: { response: { 200: platformsResponse } } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return list;
    },
  );
}

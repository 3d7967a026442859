// GET /api/platforms: the registered video platforms and their link shapes, for the client's link
// fields and texts (issue 30). Public and static for the life of the process.
import type { ZApp } from '../types.js';
import type { AppContext } from '../context.js';
import { platformsResponse } from '../../shared/contracts/platforms.js';

export function platformsRoutes(app: ZApp, ctx: AppContext) {
  const list = ctx.platforms.all.map((p) => ({
    id: p.id,
    name: p.name,
    example: p.exampleUrl,
    linkPattern: p.linkPattern.source,
    separateSound: p.separateSound !== false,
  }));
  app.get(
    '/api/platforms',
    { config: { errors: [] }, schema: { response: { 200: platformsResponse } } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return list;
    },
  );
}

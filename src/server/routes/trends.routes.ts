import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import { trendsAnalysisResponse } from '../../shared/contracts/index.js';

export function trendsRoutes(app: ZApp, ctx: RouteContext) {
  app.get(
    '/api/trends/analysis',
    { preHandler: ctx.guards.pro, config: { errors: [] }, schema: { response: { 200: trendsAnalysisResponse } } },
    async (_request, reply) => {
      // Private: the answer is per Pro user; the client refetches every 5 minutes anyway.
      reply.header('cache-control', 'private, no-cache');
      return ctx.services.trendsAnalysis.analysis();
    },
  );
}

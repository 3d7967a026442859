// POST /api/content/optimize (signed in): one optimised caption per requested platform.
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import { signedInUser } from '../plugins/guards.js';
import { limitText, TEXT_WORK_ERRORS } from './text-limit.js';
import { optimizeRequest, optimizeResponse } from '../../shared/contracts/content.js';

export function contentRoutes(app: ZApp, ctx: RouteContext) {
  app.post(
    '/api/content/optimize',
    {
      preHandler: [ctx.guards.user, limitText(ctx)],
      config: { errors: TEXT_WORK_ERRORS },
      schema: { body: optimizeRequest, response: { 200: optimizeResponse } },
    },
    async (request) => ctx.services.content.optimize(request.body, signedInUser(request).id),
  );
}

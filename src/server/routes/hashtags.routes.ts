// POST /api/ai/hashtags (Pro): hashtag suggestions from the built-in engine or the language model.
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import { signedInUser } from '../plugins/guards.js';
import { limitText, TEXT_WORK_ERRORS } from './text-limit.js';
import { hashtagRequest, hashtagResponse } from '../../shared/contracts/hashtags.js';

export function hashtagsRoutes(app: ZApp, ctx: RouteContext) {
  app.post(
    '/api/ai/hashtags',
    {
      preHandler: [ctx.guards.pro, limitText(ctx)],
      config: { errors: TEXT_WORK_ERRORS },
      schema: { body: hashtagRequest, response: { 200: hashtagResponse } },
    },
    async (request) => ctx.services.hashtags.generate(request.body, signedInUser(request).id),
  );
}

import { MEDIA_JOB_ERRORS } from '../plugins/route-errors.js';
import type { ZApp } from '../types.js';
import { signedInUser } from '../plugins/guards.js';
import type { RouteContext } from './route-context.js';
import { audioExtractRequest, audioResultSchema, mediaJobSchema } from '../../shared/contracts/index.js';
import { mediaJobOwner } from '../services/entitlements.service.js';
import { abortOnDisconnect } from '../lib/abort-on-disconnect.js';
import { respondAsync } from './media-jobs.routes.js';

export function audioRoutes(app: ZApp, ctx: RouteContext) {
  app.post(
    '/api/audio/extract',
    {
      preHandler: ctx.guards.pro,
      config: { errors: MEDIA_JOB_ERRORS },
      schema: { body: audioExtractRequest, response: { 200: audioResultSchema, 202: mediaJobSchema } },
    },
    async (request, reply) => {
      const out = await ctx.services.audio.extract(
        request.body.url,
        abortOnDisconnect(reply),
        mediaJobOwner(signedInUser(request)),
        { respondAsync: respondAsync(request) },
      );
      return 'state' in out ? reply.status(202).send(out) : out;
    },
  );
}

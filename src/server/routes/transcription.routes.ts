import { MEDIA_JOB_ERRORS } from '../plugins/route-errors.js';
import type { ZApp } from '../types.js';
import { signedInUser } from '../plugins/guards.js';
import type { RouteContext } from './route-context.js';
import { mediaJobSchema, transcriptionRequest, transcriptionResultSchema } from '../../shared/contracts/index.js';
import { mediaJobOwner } from '../services/entitlements.service.js';
import { abortOnDisconnect } from '../lib/abort-on-disconnect.js';
import { respondAsync } from './media-jobs.routes.js';

export function transcriptionRoutes(app: ZApp, ctx: RouteContext) {
  app.post(
    '/api/transcription/generate',
    {
      preHandler: ctx.guards.pro,
      config: {
        errors: [
          ...MEDIA_JOB_ERRORS,
          'transcription.unavailable',
          'transcription.failed',
          'transcription.no_speech',
          'transcription.busy',
          'transcription.upstream',
        ],
      },
      schema: { body: transcriptionRequest, response: { 200: transcriptionResultSchema, 202: mediaJobSchema } },
    },
    async (request, reply) => {
      const out = await ctx.services.transcription.generate(
        request.body.url,
        abortOnDisconnect(reply),
        mediaJobOwner(signedInUser(request)),
        { respondAsync: respondAsync(request) },
      );
      return 'state' in out ? reply.status(202).send(out) : out;
    },
  );
}

import type { ZApp } from '../types.js';
import type { AppContext } from '../context.js';
import { transcriptionRequest, transcriptionResultSchema } from '../../shared/contracts/index.js';
import { mediaJobOwner } from '../services/entitlements.service.js';
import { abortOnDisconnect } from '../lib/abort-on-disconnect.js';

export function transcriptionRoutes(app: ZApp, ctx: AppContext) {
  app.post(
    '/api/transcription/generate',
    { preHandler: ctx.guards.pro, schema: { body: transcriptionRequest, response: { 200: transcriptionResultSchema } } },
    async (request, reply) => ctx.services.transcription.generate(request.body.url, abortOnDisconnect(reply), mediaJobOwner(request.user!)),
  );
}

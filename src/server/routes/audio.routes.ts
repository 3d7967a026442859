import type { ZApp } from '../types.js';
import type { AppContext } from '../context.js';
import { audioExtractRequest, audioResultSchema } from '../../shared/contracts/index.js';
import { mediaJobOwner } from '../services/entitlements.service.js';
import { abortOnDisconnect } from '../lib/abort-on-disconnect.js';

export function audioRoutes(app: ZApp, ctx: AppContext) {
  app.post(
    '/api/audio/extract',
    { preHandler: ctx.guards.pro, schema: { body: audioExtractRequest, response: { 200: audioResultSchema } } },
    async (request, reply) => ctx.services.audio.extract(request.body.url, abortOnDisconnect(reply), mediaJobOwner(request.user!)),
  );
}

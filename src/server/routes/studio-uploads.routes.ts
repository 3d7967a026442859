// Video uploads over tus (issue 29, decision 0033) under /api/uploads: creation (POST), resume
// (HEAD, PATCH), termination (DELETE). Sign-in, Pro and ownership are checked here, before tus sees
// the request; someone else's upload is a 404. The body is never parsed by Fastify: tus streams it
// to disk itself, so a PATCH of any size is never held in memory.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZApp } from '../types.js';
import type { AppContext } from '../context.js';
import { fail } from '../errors.js';
import { userOf } from './caption-studio.routes.js';
import { UPLOADS_PATH } from '../services/caption-studio/studio-uploads.service.js';

export async function studioUploadsRoutes(app: ZApp, ctx: AppContext) {
  await app.register(async (scope: ZApp) => {
    scope.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
    const uploads = () => ctx.services.studioUploads;
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const id = uploads().idOf(request.url);
      if (request.method !== 'POST' && request.method !== 'OPTIONS')
        await uploads().owned(userOf(request).id, id ?? '');
      // Checked while streaming: the first bytes say whether this is a video at all.
      if (id && !(await uploads().firstChunkIsVideo(id, request.raw))) {
        reply.header('connection', 'close');
        throw fail('upload.not_video');
      }
      reply.hijack();
      await uploads().handle(userOf(request).id, request.raw, reply.raw);
    };
    scope.post(UPLOADS_PATH, { preHandler: ctx.guards.pro }, handler);
    for (const method of ['HEAD', 'PATCH', 'DELETE'] as const)
      scope.route({ method, url: `${UPLOADS_PATH}/:id`, preHandler: ctx.guards.pro, handler });
  });
}

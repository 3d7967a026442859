// Video uploads over tus (issue 29, decision 0033) under /api/uploads: creation (POST), resume
// (HEAD, PATCH), termination (DELETE). Sign-in, Pro and ownership are checked here, before tus sees
// the request; someone else's upload is a 404. The URL must be exactly `/api/uploads` or
// `/api/uploads/<id>` (no query, no other segment), so the id checked is the id tus acts on, and
// the tus headers are checked here too, so every refusal is our JSON envelope (issue 34, decision
// 0047). The body is never parsed by Fastify: tus streams it to disk itself, so a PATCH of any size
// is never held in memory.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import { fail } from '../errors.js';
import type { ErrorCode } from '../../shared/error-messages.js';
import { userOf } from './caption-studio.routes.js';
import { checkTusHeaders, UPLOADS_PATH } from '../services/caption-studio/studio-uploads.service.js';

/** writeHead's headers (raw pairs or an object) with the content type of our error envelope. */
function jsonContentType(arg: unknown): unknown {
  const json = 'application/json; charset=utf-8';
  if (Array.isArray(arg))
    return arg.map((v, i) => (i % 2 === 1 && String(arg[i - 1]).toLowerCase() === 'content-type' ? json : v));
  if (arg && typeof arg === 'object')
    return {
      ...Object.fromEntries(Object.entries(arg).filter(([k]) => k.toLowerCase() !== 'content-type')),
      'content-type': json,
    };
  return arg;
}

export async function studioUploadsRoutes(app: ZApp, ctx: RouteContext) {
  await app.register(async (scope: ZApp) => {
    scope.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
    const uploads = () => ctx.services.studioUploads;
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const creation = request.method === 'POST';
      const id = creation ? null : uploads().idOf(request.url);
      if (creation ? request.url !== UPLOADS_PATH : !id) throw fail('upload.not_found');
      checkTusHeaders(request.method, request.headers);
      if (id) await uploads().arriving(request.method, await uploads().owned(userOf(request).id, id));
      // Checked while streaming: the first bytes say whether this is a video at all.
      if (id && !(await uploads().firstChunkIsVideo(id, request.raw))) {
        reply.header('connection', 'close');
        throw fail('upload.not_video');
      }
      reply.hijack();
      // tus writes its answers itself (as text/plain): an error's body is our envelope, so say JSON.
      const res = reply.raw;
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => typeof res;
      res.writeHead = ((status: number, ...rest: unknown[]) =>
        writeHead(status, ...(status >= 400 ? rest.map(jsonContentType) : rest))) as typeof res.writeHead;
      await uploads().handle(userOf(request).id, request.raw, res);
    };
    // What the checks above and the upload service answer; tus's own protocol errors (a wrong offset
    // 409, a missing header 400) come in the same envelope.
    const errors: ErrorCode[] = [
      'upload.not_found',
      'upload.too_many_open',
      'upload.open_bytes',
      'upload.not_video',
      'upload.too_large',
      'upload.no_audio',
      'upload.too_long',
      'upload.incomplete',
    ];
    scope.post(UPLOADS_PATH, { preHandler: ctx.guards.pro, config: { errors } }, handler);
    // The ids tus makes (studio-uploads.service.ts namingFunction): 16 random bytes in hex.
    const params = z.object({ id: z.string().regex(/^[0-9a-f]{32}$/, 'Unknown upload') });
    for (const method of ['HEAD', 'PATCH', 'DELETE'] as const)
      scope.route({
        method,
        url: `${UPLOADS_PATH}/:id`,
        preHandler: ctx.guards.pro,
        config: { errors },
        schema: { params },
        handler,
      });
  });
}

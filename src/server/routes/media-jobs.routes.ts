// Where a media job stands, for clients that asked the tools not to wait (Prefer: respond-async):
// GET /api/media-jobs/:id. The id is unguessable, and only those who asked for the job (several,
// when they share it) can follow it: to anyone else it is unknown (issue 31). Any signed-in account:
// a free account's repost kit is a media job too (issue 47).
import type { FastifyRequest } from 'fastify';
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import { mediaJobParams, mediaJobSchema, mediaJobStatusQuery, RESPOND_ASYNC } from '../../shared/contracts/index.js';
import { abortOnDisconnect } from '../lib/abort-on-disconnect.js';

/** True when the request says `Prefer: respond-async` (RFC 7240). */
export const respondAsync = (request: FastifyRequest) =>
  String(request.headers.prefer ?? '')
    .split(',')
    .some((p) => p.trim().toLowerCase() === RESPOND_ASYNC);

export function mediaJobsRoutes(app: ZApp, ctx: RouteContext) {
  app.get(
    '/api/media-jobs/:id',
    {
      preHandler: ctx.guards.user,
      config: { errors: ['media.job_not_found'] },
      schema: { params: mediaJobParams, querystring: mediaJobStatusQuery, response: { 200: mediaJobSchema } },
    },
    // `wait`: a long poll (it only reads: nothing starts or is spent), given up when the client leaves.
    async (request, reply) =>
      ctx.services.mediaJobs.status(request.params.id, request.user?.id ?? '', {
        ms: request.query.wait ?? 0,
        seen: request.query.seen,
        signal: abortOnDisconnect(reply),
      }),
  );
  // Cancel (a caption render's Cancel button): only the job's own owner; anyone else is told it does not exist.
  app.delete(
    '/api/media-jobs/:id',
    {
      preHandler: ctx.guards.user,
      config: { errors: ['media.job_not_found'] },
      schema: { params: mediaJobParams, response: { 200: mediaJobSchema } },
    },
    async (request) => ctx.services.mediaJobs.cancel(request.params.id, request.user?.id ?? ''),
  );
}

// Whole profiles and a post's replies (issue 45). A profile page is a lookup (signed in, counted
// like a video lookup, spends nothing); a replies file is Pro. POST both: the Origin check stands
// before them and a GET never starts work.
import type { FastifyRequest } from 'fastify';
import { fail, retryAfter } from '../errors.js';
import { abortOnDisconnect } from '../lib/abort-on-disconnect.js';
import { downloadHeaders } from '../lib/download-headers.js';
import { guard, LOOKUP_ERRORS } from '../plugins/route-errors.js';
import { signedInUser } from '../plugins/guards.js';
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import { API_PATHS } from '../../shared/api-paths.js';
import { profilePostsRequest, profilePostsResponse, repliesExportRequest } from '../../shared/contracts/index.js';

export function profilesRoutes(app: ZApp, ctx: RouteContext) {
  const { profiles } = ctx.services;
  const limitLookups = guard(['rate_limited'], async (request: FastifyRequest) => {
    const wait = await ctx.limits.lookupsPerUser.hit(`u:${signedInUser(request).id}`);
    if (wait) throw fail('rate_limited', undefined, {}, retryAfter(wait));
  });

  app.post(
    API_PATHS.profilePosts,
    {
      preHandler: [ctx.guards.user, limitLookups],
      config: { errors: [...LOOKUP_ERRORS, 'profile.not_found', 'profile.unavailable', 'profile.no_media'] },
      schema: { body: profilePostsRequest, response: { 200: profilePostsResponse } },
    },
    async (request, reply) => profiles.page(request.body, abortOnDisconnect(reply)),
  );

  app.post(
    API_PATHS.repliesExport,
    {
      preHandler: [ctx.guards.pro, limitLookups],
      config: { errors: LOOKUP_ERRORS },
      schema: { body: repliesExportRequest },
    },
    async (request, reply) => {
      const file = await profiles.replies(request.body.url, request.body.format, abortOnDisconnect(reply));
      reply.headers({
        ...downloadHeaders({
          fileName: file.fileName,
          contentType: file.contentType,
          length: file.body.length,
          cache: 'private, no-store',
        }),
        'x-reply-count': String(file.count),
      });
      return reply.send(file.body);
    },
  );
}

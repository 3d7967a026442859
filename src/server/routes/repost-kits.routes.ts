// Repost kits (issue 47), for any signed-in account: the preview of each target's card (nothing made
// or spent), and the kit itself, a media job (`Prefer: respond-async` answers 202 and the job is
// followed through GET /api/media-jobs/:id, whose done view lists each target's files).
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import { API_PATHS } from '../../shared/api-paths.js';
import { mediaJobSchema, repostKitRequest, repostPreview, repostPreviewRequest } from '../../shared/contracts/index.js';
import type { ErrorCode } from '../../shared/error-messages.js';
import { signedInUser } from '../plugins/guards.js';
import { abortOnDisconnect } from '../lib/abort-on-disconnect.js';
import { LOOKUP_ERRORS, MEDIA_JOB_ERRORS } from '../plugins/route-errors.js';
import { limitText, TEXT_WORK_ERRORS } from './text-limit.js';
import { respondAsync } from './media-jobs.routes.js';

const SOURCE_ERRORS: ErrorCode[] = [...LOOKUP_ERRORS, ...TEXT_WORK_ERRORS, 'repost.not_video', 'studio.not_found'];

export function repostKitsRoutes(app: ZApp, ctx: RouteContext) {
  app.post(
    API_PATHS.repostKitPreview,
    {
      preHandler: [ctx.guards.user, limitText(ctx)],
      config: { errors: SOURCE_ERRORS },
      schema: { body: repostPreviewRequest, response: { 200: repostPreview } },
    },
    async (request, reply) =>
      ctx.services.repostKits.preview(signedInUser(request), request.body, abortOnDisconnect(reply)),
  );

  app.post(
    API_PATHS.repostKits,
    {
      preHandler: [ctx.guards.user, limitText(ctx)],
      config: {
        errors: [
          ...SOURCE_ERRORS,
          ...MEDIA_JOB_ERRORS,
          'quota.exhausted',
          'studio.source_gone',
          'repost.credit_required',
          'repost.burn_needs_project',
          'repost.nothing_made',
        ],
      },
      schema: { body: repostKitRequest, response: { 200: mediaJobSchema, 202: mediaJobSchema } },
    },
    async (request, reply) => {
      const out = await ctx.services.repostKits.start(signedInUser(request), request.body, abortOnDisconnect(reply), {
        respondAsync: respondAsync(request),
      });
      return out.state === 'done' ? out : reply.status(202).send(out);
    },
  );
}

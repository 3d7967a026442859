// Batch downloads (issue 21, Pro): create, follow, retry, and the ZIP behind a signed link.
import { z } from 'zod';
import { signedInUser } from '../plugins/guards.js';
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import { API_PATHS } from '../../shared/api-paths.js';
import { batchCreated, batchCreateRequest, batchList, batchView } from '../../shared/contracts/index.js';
import { abortOnDisconnect } from '../lib/abort-on-disconnect.js';
import { downloadHeaders } from '../lib/download-headers.js';

export function batchRoutes(app: ZApp, ctx: RouteContext) {
  const { batch } = ctx.services;
  const idParams = z.object({ id: z.string().uuid('Unknown batch') });

  app.post(
    '/api/batch',
    {
      preHandler: ctx.guards.pro,
      config: { errors: ['link.unsupported', 'batch.duplicate'] },
      schema: { body: batchCreateRequest, response: { 202: batchCreated } },
    },
    async (request, reply) => reply.status(202).send(await batch.create(signedInUser(request), request.body)),
  );
  app.get(
    '/api/batch',
    { preHandler: ctx.guards.user, config: { errors: [] }, schema: { response: { 200: batchList } } },
    async (request) => batch.list(signedInUser(request)),
  );
  app.get(
    '/api/batch/:id',
    {
      preHandler: ctx.guards.user,
      config: { errors: ['batch.not_found'] },
      schema: { params: idParams, response: { 200: batchView } },
    },
    async (request) => batch.view(signedInUser(request), request.params.id),
  );
  app.post(
    '/api/batch/:id/retry',
    {
      preHandler: ctx.guards.pro,
      config: { errors: ['batch.not_found'] },
      schema: { params: idParams, response: { 200: batchView } },
    },
    async (request) => batch.retry(signedInUser(request), request.params.id),
  );
  // The link is the capability (it works in a plain <a download>), like other stored results.
  const zipQuery = z.object({
    exp: z.coerce.number().int().positive('Invalid link'),
    sig: z.string().regex(/^[\w-]{20,100}$/, 'Invalid link'),
  });
  app.get(
    API_PATHS.batchZip,
    {
      config: { errors: ['batch.not_found', 'media.link_invalid', 'media.link_expired'] },
      schema: { params: idParams, querystring: zipQuery },
    },
    async (request, reply) => {
      const zip = await batch.zip(request.params.id, request.query.exp, request.query.sig);
      abortOnDisconnect(reply).addEventListener('abort', () => zip.stream.destroy(), { once: true });
      reply.headers(
        downloadHeaders({
          fileName: zip.fileName,
          contentType: 'application/zip',
          length: zip.size,
          cache: 'private, no-store',
        }),
      );
      return reply.send(zip.stream);
    },
  );
}

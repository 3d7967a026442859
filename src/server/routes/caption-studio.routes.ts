// The caption studio's API (issue 29), all Pro: projects (create from a link or an upload, list,
// read, autosave with a revision), the source video for the preview (Range), exports, the burn-in
// render (a media job, `Prefer: respond-async` for a 202; DELETE /api/media-jobs/:id cancels it) and the fonts the
// preview draws with. Uploads (tus) are in studio-uploads.routes.ts.
import fs from 'node:fs';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ZApp } from '../types.js';
import type { AppContext } from '../context.js';
import {
  captionExportParams,
  captionFontParams,
  captionProjectParams,
  captionProjectSchema,
  captionProjectSummarySchema,
  captionRenderResultSchema,
  createCaptionProjectRequest,
  mediaJobSchema,
  saveCaptionProjectRequest,
} from '../../shared/contracts/index.js';
import { mediaJobOwner } from '../services/entitlements.service.js';
import { abortOnDisconnect } from '../lib/abort-on-disconnect.js';
import { fontPath } from '../adapters/media/studio-fonts.js';
import { fail } from '../errors.js';
import { respondAsync } from './media-jobs.routes.js';

/** The signed-in user the Pro guard put on the request. */
export const userOf = (request: FastifyRequest) => {
  if (!request.user) throw fail('auth.required');
  return request.user;
};

const attachment = (name: string) => {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
};

export function captionStudioRoutes(app: ZApp, ctx: AppContext) {
  const projects = () => ctx.services.captionProjects;
  const pro = ctx.guards.pro;

  app.post(
    '/api/caption-projects',
    {
      preHandler: pro,
      schema: { body: createCaptionProjectRequest, response: { 201: captionProjectSchema, 202: mediaJobSchema } },
    },
    async (request, reply) => {
      const out = await projects().create(
        userOf(request),
        request.body.source,
        abortOnDisconnect(reply),
        mediaJobOwner(userOf(request)),
        { respondAsync: respondAsync(request) },
      );
      return reply.status('state' in out ? 202 : 201).send(out);
    },
  );

  app.get(
    '/api/caption-projects',
    { preHandler: pro, schema: { response: { 200: z.array(captionProjectSummarySchema) } } },
    async (request) => projects().list(userOf(request)),
  );

  app.get(
    '/api/caption-projects/:id',
    { preHandler: pro, schema: { params: captionProjectParams, response: { 200: captionProjectSchema } } },
    async (request) => projects().get(userOf(request), request.params.id),
  );

  app.put(
    '/api/caption-projects/:id',
    {
      preHandler: pro,
      bodyLimit: 4 * 1024 * 1024, // 2,000 lines of 40 words with their times, as JSON
      schema: {
        params: captionProjectParams,
        body: saveCaptionProjectRequest,
        response: { 200: captionProjectSchema },
      },
    },
    async (request) => projects().save(userOf(request), request.params.id, request.body),
  );

  app.get(
    '/api/caption-projects/:id/media',
    { preHandler: pro, schema: { params: captionProjectParams } },
    async (request, reply) => {
      const media = await projects().openMedia(userOf(request), request.params.id, request.headers.range);
      reply
        .header('content-type', media.contentType)
        .header('accept-ranges', 'bytes')
        .header('cache-control', 'private, max-age=3600');
      if (media.range) {
        reply
          .status(206)
          .header('content-range', `bytes ${media.range.start}-${media.range.end}/${media.size}`)
          .header('content-length', String(media.range.end - media.range.start + 1));
      } else reply.header('content-length', String(media.size));
      return reply.send(media.stream);
    },
  );

  app.get(
    '/api/caption-projects/:id/export/:format',
    { preHandler: pro, schema: { params: captionExportParams } },
    async (request, reply) => {
      const file = await projects().exportFile(userOf(request), request.params.id, request.params.format);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', attachment(file.fileName))
        .header('cache-control', 'private, no-store')
        .send(file.body);
    },
  );

  app.post(
    '/api/caption-projects/:id/render',
    {
      preHandler: pro,
      schema: { params: captionProjectParams, response: { 200: captionRenderResultSchema, 202: mediaJobSchema } },
    },
    async (request, reply) => {
      const out = await projects().render(
        userOf(request),
        request.params.id,
        abortOnDisconnect(reply),
        mediaJobOwner(userOf(request)),
        { respondAsync: respondAsync(request) },
      );
      return 'state' in out ? reply.status(202).send(out) : out;
    },
  );

  app.get(
    '/api/caption-studio/fonts/:file',
    { preHandler: pro, schema: { params: captionFontParams } },
    async (request, reply) => {
      const file = fontPath(request.params.file);
      if (!file) throw fail('not_found');
      return reply
        .header('content-type', file.endsWith('.ttf') ? 'font/ttf' : 'font/otf')
        .header('cache-control', 'private, max-age=604800, immutable')
        .header('content-length', String(fs.statSync(file).size))
        .send(fs.createReadStream(file));
    },
  );
}

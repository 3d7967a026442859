// The caption studio's API (issue 29), all Pro: projects (create from a link or an upload, list,
// read, autosave with a revision), the source video for the preview (Range), exports, the burn-in
// render (a media job, `Prefer: respond-async` for a 202; DELETE /api/media-jobs/:id cancels it) and the fonts the
// preview draws with. Uploads (tus) are in studio-uploads.routes.ts.
import fs from 'node:fs';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
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
  whisperModelStatusSchema,
} from '../../shared/contracts/index.js';
import { mediaJobOwner } from '../services/entitlements.service.js';
import { abortOnDisconnect } from '../lib/abort-on-disconnect.js';
import { fail } from '../errors.js';
import { respondAsync } from './media-jobs.routes.js';
import { MEDIA_JOB_ERRORS } from '../plugins/route-errors.js';
import type { ErrorCode } from '../../shared/error-messages.js';
import { downloadHeaders } from '../lib/download-headers.js';

/** The signed-in user the Pro guard put on the request. */
export const userOf = (request: FastifyRequest) => {
  if (!request.user) throw fail('auth.required');
  return request.user;
};

/** Opening a project transcribes its source: a platform video or an upload. */
const SOURCE_ERRORS: ErrorCode[] = [
  ...MEDIA_JOB_ERRORS,
  'link.unsupported',
  'studio.photo_post',
  'upload.not_found',
  'upload.not_finished',
  'upload.no_audio',
  'upload.too_long',
  'upload.incomplete',
  'transcription.unavailable',
  'transcription.failed',
  'transcription.no_speech',
];

export function captionStudioRoutes(app: ZApp, ctx: RouteContext) {
  const projects = () => ctx.services.captionProjects;
  const pro = ctx.guards.pro;

  app.post(
    '/api/caption-projects',
    {
      preHandler: pro,
      config: { errors: SOURCE_ERRORS },
      schema: { body: createCaptionProjectRequest, response: { 201: captionProjectSchema, 202: mediaJobSchema } },
    },
    async (request, reply) => {
      const out = await projects().create(
        userOf(request),
        request.body.source,
        abortOnDisconnect(reply),
        mediaJobOwner(userOf(request)),
        {
          respondAsync: respondAsync(request),
          language: request.body.language,
          listen: request.body.listen,
          translate: request.body.translate,
        },
      );
      return reply.status('state' in out ? 202 : 201).send(out);
    },
  );

  app.get(
    '/api/caption-projects',
    { preHandler: pro, config: { errors: [] }, schema: { response: { 200: z.array(captionProjectSummarySchema) } } },
    async (request) => projects().list(userOf(request)),
  );

  app.get(
    '/api/caption-projects/:id',
    {
      preHandler: pro,
      config: { errors: ['studio.not_found'] },
      schema: { params: captionProjectParams, response: { 200: captionProjectSchema } },
    },
    async (request) => projects().get(userOf(request), request.params.id),
  );

  app.put(
    '/api/caption-projects/:id',
    {
      preHandler: pro,
      config: { errors: ['studio.not_found', 'studio.stale_revision', 'studio.time_out_of_range'] },
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
    {
      preHandler: pro,
      config: { errors: ['studio.not_found', 'studio.source_gone', 'media.range'] },
      schema: { params: captionProjectParams },
    },
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
    { preHandler: pro, config: { errors: ['studio.not_found'] }, schema: { params: captionExportParams } },
    async (request, reply) => {
      const file = await projects().exportFile(userOf(request), request.params.id, request.params.format);
      return reply
        .headers(
          downloadHeaders({ fileName: file.fileName, contentType: file.contentType, cache: 'private, no-store' }),
        )
        .send(file.body);
    },
  );

  app.post(
    '/api/caption-projects/:id/render',
    {
      preHandler: pro,
      config: { errors: [...MEDIA_JOB_ERRORS, 'studio.not_found', 'studio.source_gone', 'studio.render_outdated'] },
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

  // Where this server's Whisper model stands (preparing, with its percent; why not): only reads.
  app.get(
    '/api/caption-studio/whisper',
    { preHandler: pro, config: { errors: [] }, schema: { response: { 200: whisperModelStatusSchema } } },
    async (_request, reply) => reply.header('cache-control', 'no-store').send(ctx.services.whisperModel.status()),
  );

  app.get(
    '/api/caption-studio/fonts/:file',
    { preHandler: pro, config: { errors: ['not_found'] }, schema: { params: captionFontParams } },
    async (request, reply) => {
      const file = ctx.services.studioFonts.path(request.params.file);
      if (!file) throw fail('not_found');
      return reply
        .header('content-type', file.endsWith('.ttf') ? 'font/ttf' : 'font/otf')
        .header('cache-control', 'private, max-age=604800, immutable')
        .header('content-length', String(fs.statSync(file).size))
        .send(fs.createReadStream(file));
    },
  );
}

// Video lookup (signed out too, rate-limited per IP), quota-counted download, inline preview and
// thumbnail, all through this product's own endpoints (a platform's CDN links need its page's cookies).
import type { FastifyRequest } from 'fastify';
import { signedInUser } from '../plugins/guards.js';
import { z } from 'zod';
import type { ZApp } from '../types.js';
import type { AppContext } from '../context.js';
import { videoDownloadRequest, videoInfo, videoInfoRequest } from '../../shared/contracts/index.js';
import { abortOnDisconnect } from '../lib/abort-on-disconnect.js';
import { fail, retryAfter } from '../errors.js';
import { sendRelayed } from '../lib/send-relayed.js';
import { isPro, mediaJobOwner } from '../services/entitlements.service.js';
import { fileStem } from '../services/download.service.js';
import { slideName } from '../services/photo-post.service.js';
import { PICTURE_KINDS } from '../services/video.service.js';

/** Refuses a request another site's page made (a typed or bookmarked link says `none`; curl sends nothing). */
async function sameSiteOnly(request: FastifyRequest) {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') throw fail('auth.bad_origin');
}

export function videoRoutes(app: ZApp, ctx: AppContext) {
  const { video, downloads } = ctx.services;
  const { lookupsPerIp, lookupsPerUser, mediaPerCaller } = ctx.limits;

  async function limitLookups(request: FastifyRequest) {
    const user = await ctx.guards.currentUser(request);
    const wait = await (user ? lookupsPerUser.hit(`u:${user.id}`) : lookupsPerIp.hit(`ip:${request.ip}`));
    if (wait) throw fail('rate_limited', undefined, {}, retryAfter(wait));
  }

  /** Media by id: a per-caller ceiling, and an id not looked up lately costs a lookup (a page fetch). */
  async function limitMediaById(request: FastifyRequest, id: string, platform: string | undefined, key: string) {
    const wait = await mediaPerCaller.hit(key);
    if (wait) throw fail('rate_limited', undefined, {}, retryAfter(wait));
    if (!video.isCached(id, platform)) await limitLookups(request);
  }

  app.post(
    '/api/video/info',
    { preHandler: limitLookups, schema: { body: videoInfoRequest, response: { 200: videoInfo } } },
    async (request, reply) => (await video.getInfo(request.body.url, abortOnDisconnect(reply))).info,
  );

  app.post(
    '/api/video/download',
    { preHandler: ctx.guards.user, schema: { body: videoDownloadRequest } },
    async (request, reply) => {
      const signal = abortOnDisconnect(reply);
      return sendRelayed(reply, await downloads.start(signedInUser(request), request.body, signal));
    },
  );

  // The link each download option advertises (`downloadOptions[].url`): the same download, for a
  // browser link or `curl -b cookies`. A GET is not covered by the Origin check, so another site's
  // page may not spend a download: a browser says where the request came from (Sec-Fetch-Site).
  app.get(
    '/api/video/download',
    { preHandler: [sameSiteOnly, ctx.guards.user], schema: { querystring: videoDownloadRequest } },
    async (request, reply) => {
      const user = request.user;
      if (!user) throw fail('auth.required'); // the guard ran; this only narrows the type
      return sendRelayed(reply, await downloads.start(user, request.query, abortOnDisconnect(reply)));
    },
  );

  // Each platform checks its own id shape (Platform.idPattern); `platform` defaults to DEFAULT_PLATFORM so
  // the links made before the platform seam keep working.
  const idParams = z.object({ id: z.string().regex(/^[\w-]{1,64}$/, 'Please provide a valid video id') });
  const byIdQuery = z.object({
    platform: z
      .string()
      .regex(/^[a-z0-9-]{1,40}$/, 'Unknown platform')
      .optional(),
  });

  app.get(
    '/api/video/stream/:id',
    { preHandler: ctx.guards.user, schema: { params: idParams, querystring: byIdQuery } },
    async (request, reply) => {
      const { platform } = request.query;
      await limitMediaById(request, request.params.id, platform, `u:${signedInUser(request).id}`);
      // Not Pro: a short clip (decision 0010), or the preview would be an uncounted download.
      if (!isPro(signedInUser(request))) {
        reply.header('cache-control', 'private, no-store');
        return reply.redirect(
          await ctx.services.preview.clipLink(
            request.params.id,
            abortOnDisconnect(reply),
            platform,
            mediaJobOwner(signedInUser(request)),
          ),
          302,
        );
      }
      const range = typeof request.headers.range === 'string' ? request.headers.range : undefined;
      const media = await video.openPreview(request.params.id, range, abortOnDisconnect(reply), platform);
      reply.status(media.status).headers({
        'content-type': media.contentType,
        'accept-ranges': 'bytes',
        'content-disposition': 'inline',
        'cache-control': 'private, no-store',
        ...(media.contentLength !== null ? { 'content-length': String(media.contentLength) } : {}),
        ...(media.contentRange ? { 'content-range': media.contentRange } : {}),
      });
      return reply.send(media.stream);
    },
  );

  // A photo post's slide, byte for byte (the strip shows it; `?download=1` saves it as a file).
  const slideParams = idParams.extend({
    n: z.coerce
      .number({ error: 'Unknown slide' })
      .int('Unknown slide')
      .min(1, 'Unknown slide')
      .max(99, 'Unknown slide'),
  });
  const slideQuery = byIdQuery.extend({ download: z.enum(['1']).optional() });
  app.get(
    '/api/video/image/:id/:n',
    { schema: { params: slideParams, querystring: slideQuery } },
    async (request, reply) => {
      const { id, n } = request.params;
      const { platform } = request.query;
      await limitMediaById(request, id, platform, `ip:${request.ip}`);
      const slide = await video.openSlide(id, n, abortOnDisconnect(reply), platform);
      const type = /^image\/[\w.+-]+$/.test(slide.contentType) ? slide.contentType : 'application/octet-stream';
      const name = `${fileStem(slide.video.ref.platform, slide.video.video.author, id)}-${slideName(n - 1, type)}`;
      reply.headers({
        'content-type': type,
        'cache-control': 'private, max-age=3600',
        'x-content-type-options': 'nosniff',
        'content-disposition': request.query.download ? `attachment; filename="${name}"` : 'inline',
        ...(slide.contentLength !== null ? { 'content-length': String(slide.contentLength) } : {}),
      });
      return reply.send(slide.stream);
    },
  );

  // A post's cover, animated cover or author's picture (issue 28), byte for byte like a slide.
  const pictureParams = idParams.extend({ kind: z.enum(PICTURE_KINDS, { error: 'Unknown picture' }) });
  app.get(
    '/api/video/picture/:id/:kind',
    { schema: { params: pictureParams, querystring: slideQuery } },
    async (request, reply) => {
      const { id, kind } = request.params;
      const { platform } = request.query;
      await limitMediaById(request, id, platform, `ip:${request.ip}`);
      const picture = await video.openPicture(id, kind, abortOnDisconnect(reply), platform);
      const type = /^image\/[\w.+-]+$/.test(picture.contentType) ? picture.contentType : 'application/octet-stream';
      const ext = slideName(0, type).slice(3); // jpg, webp, png…
      const name = `${fileStem(picture.video.ref.platform, picture.video.video.author, id)}-${kind}.${ext}`;
      reply.headers({
        'content-type': type,
        'cache-control': 'private, max-age=3600',
        'x-content-type-options': 'nosniff',
        'content-disposition': request.query.download ? `attachment; filename="${name}"` : 'inline',
        ...(picture.contentLength !== null ? { 'content-length': String(picture.contentLength) } : {}),
      });
      return reply.send(picture.stream);
    },
  );

  app.get(
    '/api/video/thumbnail/:id',
    { schema: { params: idParams, querystring: byIdQuery } },
    async (request, reply) => {
      const { platform } = request.query;
      await limitMediaById(request, request.params.id, platform, `ip:${request.ip}`);
      const image = await video.openThumbnail(request.params.id, abortOnDisconnect(reply), platform);
      const type = /^image\/[\w.+-]+$/.test(image.contentType) ? image.contentType : 'application/octet-stream';
      reply.headers({
        'content-type': type,
        'cache-control': 'private, max-age=3600',
        'x-content-type-options': 'nosniff',
      });
      return reply.send(image.stream);
    },
  );
}

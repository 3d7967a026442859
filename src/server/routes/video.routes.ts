// Video lookup (signed out too, rate-limited per IP), quota-counted download, inline preview and
// thumbnail, all through this product's own endpoints (a platform's CDN links need its page's cookies).
import { DOWNLOAD_ERRORS, guard, LOOKUP_ERRORS, MEDIA_ERRORS, MEDIA_JOB_ERRORS } from '../plugins/route-errors.js';
import type { FastifyRequest } from 'fastify';
import { signedInUser } from '../plugins/guards.js';
import { z } from 'zod';
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import {
  spendKeyQuery,
  videoDownloadRequest,
  videoInfo,
  videoInfoRequest,
  videoLinkResponse,
} from '../../shared/contracts/index.js';
import { abortOnDisconnect } from '../lib/abort-on-disconnect.js';
import { fail, retryAfter } from '../errors.js';
import { sendRelayed } from '../lib/send-relayed.js';
import { API_PATHS, downloadUrl } from '../../shared/api-paths.js';
import { isPro, mediaJobOwner } from '../services/entitlements.service.js';
import { fileStem } from '../../shared/file-names.js';
import { slideName } from '../services/photo-post.service.js';
import { PICTURE_KINDS } from '../services/video.service.js';
import { downloadHeaders } from '../lib/download-headers.js';
import { personAsked } from '../plugins/person-asked.js';
import { createSpendLinks } from '../lib/spend-links.js';

export function videoRoutes(app: ZApp, ctx: RouteContext) {
  const { video, downloads } = ctx.services;
  const { lookupsPerIp, lookupsPerUser, mediaPerCaller } = ctx.limits;
  // Spending GETs carry a key made for the person (lib/spend-links.ts, decision 0082).
  const links = createSpendLinks(ctx.config.sessionSecret);
  const asked = { links, currentUser: ctx.guards.currentUser };

  const limitLookups = guard(['rate_limited'], async (request: FastifyRequest) => {
    const user = await ctx.guards.currentUser(request);
    const wait = await (user ? lookupsPerUser.hit(`u:${user.id}`) : lookupsPerIp.hit(`ip:${request.ip}`));
    if (wait) throw fail('rate_limited', undefined, {}, retryAfter(wait));
  });

  /** Media by id: a per-caller ceiling, and an id not looked up lately costs a lookup (a page fetch). */
  async function limitMediaById(request: FastifyRequest, id: string, platform: string | undefined, key: string) {
    const wait = await mediaPerCaller.hit(key);
    if (wait) throw fail('rate_limited', undefined, {}, retryAfter(wait));
    if (!video.isCached(id, platform)) await limitLookups(request);
  }

  app.post(
    API_PATHS.videoInfo,
    {
      preHandler: limitLookups,
      config: { errors: LOOKUP_ERRORS },
      schema: { body: videoInfoRequest, response: { 200: videoInfo } },
    },
    async (request, reply) => {
      const { info } = await video.getInfo(request.body.url, abortOnDisconnect(reply));
      const user = await ctx.guards.currentUser(request);
      if (!user) return info;
      // The person's own spending links, keyed for them (their card's <video> and option links).
      const key = (link: string) => links.sign(user.id, link);
      return {
        ...info,
        videoUrl: key(info.videoUrl),
        downloadOptions: info.downloadOptions.map((o) => ({ ...o, url: key(o.url) })),
      };
    },
  );

  // A keyed download link for a script or a page holding only the post's link (POST: the Origin
  // check stands before it, so only this site's pages and the person's own scripts get one).
  app.post(
    API_PATHS.videoLink,
    {
      preHandler: ctx.guards.user,
      config: { errors: [] },
      schema: { body: videoDownloadRequest, response: { 200: videoLinkResponse } },
    },
    async (request) => ({
      url: links.sign(signedInUser(request).id, downloadUrl(request.body.url, request.body.quality)),
    }),
  );

  app.post(
    API_PATHS.videoDownload,
    { preHandler: ctx.guards.user, config: { errors: DOWNLOAD_ERRORS }, schema: { body: videoDownloadRequest } },
    async (request, reply) => {
      const signal = abortOnDisconnect(reply);
      return sendRelayed(reply, await downloads.start(signedInUser(request), request.body, signal));
    },
  );

  // The link each download option advertises (`downloadOptions[].url`): the same download, for a
  // browser link or `curl -b cookies`. A GET is not covered by the Origin check: only the person's
  // own navigation or keyed link spends a download, never an <img> or another site (0046, 0082).
  app.get(
    API_PATHS.videoDownload,
    {
      preHandler: [personAsked(asked), ctx.guards.user],
      config: { errors: DOWNLOAD_ERRORS },
      schema: { querystring: videoDownloadRequest.extend(spendKeyQuery.shape) },
    },
    async (request, reply) => {
      const user = request.user;
      if (!user) throw fail('auth.required'); // the guard ran; this only narrows the type
      const { url, quality } = request.query;
      return sendRelayed(reply, await downloads.start(user, { url, quality }, abortOnDisconnect(reply)));
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

  // The card's <video>: a free preview clip is a media job, so only a media element (or the person's
  // own navigation) starts it, never a picture in a post.
  app.get(
    API_PATHS.videoStream,
    {
      preHandler: [personAsked(asked, { media: true }), ctx.guards.user],
      // Not Pro: a short clip made by a media job (decision 0010).
      config: { errors: [...MEDIA_JOB_ERRORS, 'rate_limited'] },
      schema: { params: idParams, querystring: byIdQuery.extend(spendKeyQuery.shape) },
    },
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
      // Every file split (video alone + its sound): the joined file's signed link, Range and all.
      const joined = await ctx.services.preview.joinedLink(
        request.params.id,
        abortOnDisconnect(reply),
        platform,
        mediaJobOwner(signedInUser(request)),
      );
      if (joined) {
        reply.header('cache-control', 'private, no-store');
        return reply.redirect(joined, 302);
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
    API_PATHS.videoImage,
    {
      config: { errors: [...MEDIA_ERRORS, 'video.no_slide', 'rate_limited'] },
      schema: { params: slideParams, querystring: slideQuery },
    },
    async (request, reply) => {
      const { id, n } = request.params;
      const { platform } = request.query;
      await limitMediaById(request, id, platform, `ip:${request.ip}`);
      const slide = await video.openSlide(id, n, abortOnDisconnect(reply), platform);
      const type = /^image\/[\w.+-]+$/.test(slide.contentType) ? slide.contentType : 'application/octet-stream';
      const name = `${fileStem(slide.video.ref.platform, slide.video.video.author, id)}-${slideName(n - 1, type)}`;
      reply.headers(
        downloadHeaders({
          fileName: name,
          contentType: type,
          length: slide.contentLength,
          inline: !request.query.download,
          cache: 'private, max-age=3600',
        }),
      );
      return reply.send(slide.stream);
    },
  );

  // A post's cover, animated cover or author's picture (issue 28), byte for byte like a slide.
  const pictureParams = idParams.extend({ kind: z.enum(PICTURE_KINDS, { error: 'Unknown picture' }) });
  app.get(
    API_PATHS.videoPicture,
    {
      config: { errors: [...MEDIA_ERRORS, 'video.no_thumbnail', 'rate_limited'] },
      schema: { params: pictureParams, querystring: slideQuery },
    },
    async (request, reply) => {
      const { id, kind } = request.params;
      const { platform } = request.query;
      await limitMediaById(request, id, platform, `ip:${request.ip}`);
      const picture = await video.openPicture(id, kind, abortOnDisconnect(reply), platform);
      const type = /^image\/[\w.+-]+$/.test(picture.contentType) ? picture.contentType : 'application/octet-stream';
      const ext = slideName(0, type).slice(3); // jpg, webp, png…
      const name = `${fileStem(picture.video.ref.platform, picture.video.video.author, id)}-${kind}.${ext}`;
      reply.headers(
        downloadHeaders({
          fileName: name,
          contentType: type,
          length: picture.contentLength,
          inline: !request.query.download,
          cache: 'private, max-age=3600',
        }),
      );
      return reply.send(picture.stream);
    },
  );

  app.get(
    API_PATHS.videoThumbnail,
    {
      config: { errors: [...MEDIA_ERRORS, 'video.no_thumbnail', 'rate_limited'] },
      schema: { params: idParams, querystring: byIdQuery },
    },
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

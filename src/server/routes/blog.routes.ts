// Blog: your posts (signed in), published posts (anyone), and the HTML shell of /blog/<slug> with
// link-preview tags for bots that do not run JavaScript.
import fs from 'node:fs/promises';
import { signedInUser } from '../plugins/guards.js';
import path from 'node:path';
import { z } from 'zod';
import type { ZApp } from '../types.js';
import type { RouteContext } from './route-context.js';
import type { RouteOptions } from './index.js';
import {
  blogPost,
  blogPostIdParams,
  blogPostList,
  blogSlugParams,
  createBlogPostRequest,
  deletedResponse,
  publicBlogPost,
  updateBlogPostRequest,
} from '../../shared/contracts/index.js';
import { injectPostPreview } from '../services/blog-page-html.js';
import { limitText, POST_RENDER_ERRORS } from './text-limit.js';

export function blogRoutes(app: ZApp, ctx: RouteContext, opts: RouteOptions) {
  const blog = ctx.services.blog;
  // The same folder app.ts serves the built client from (buildApp's clientDir).
  const indexHtml = path.join(opts.clientDir, 'index.html');

  app.get(
    '/api/blog/posts',
    { preHandler: ctx.guards.user, config: { errors: [] }, schema: { response: { 200: blogPostList } } },
    async (request) => blog.listMine(signedInUser(request).id),
  );

  app.post(
    '/api/blog/posts',
    {
      preHandler: [ctx.guards.user, limitText(ctx)],
      config: { errors: ['blog.slug_invalid', 'blog.slug_taken', ...POST_RENDER_ERRORS] },
      schema: { body: createBlogPostRequest, response: { 201: blogPost } },
    },
    async (request, reply) => reply.status(201).send(await blog.create(signedInUser(request).id, request.body)),
  );

  app.put(
    '/api/blog/posts/:id',
    {
      preHandler: [ctx.guards.user, limitText(ctx)],
      config: { errors: ['blog.not_found', 'blog.slug_invalid', 'blog.slug_taken', ...POST_RENDER_ERRORS] },
      schema: { params: blogPostIdParams, body: updateBlogPostRequest, response: { 200: blogPost } },
    },
    async (request) => blog.update(signedInUser(request).id, request.params.id, request.body),
  );

  app.delete(
    '/api/blog/posts/:id',
    {
      preHandler: ctx.guards.user,
      config: { errors: ['blog.not_found'] },
      schema: { params: blogPostIdParams, response: { 200: deletedResponse } },
    },
    async (request) => {
      await blog.remove(signedInUser(request).id, request.params.id);
      return { success: true as const };
    },
  );

  // Wildcards, not ':slug': the router refuses named parameters over 100 characters, and a slug may
  // have 255.
  app.get(
    '/api/blog/public/*',
    {
      config: { errors: ['blog.not_found', 'text.busy'] },
      schema: { params: blogSlugParams, response: { 200: publicBlogPost } },
    },
    async (request) => blog.getPublished(request.params['*']),
  );

  app.get('/blog/*', { schema: { params: z.object({ '*': z.string() }) } }, async (request, reply) => {
    const slug = request.params['*'];
    const preview = slug && slug.length <= 255 && !slug.includes('/') ? await blog.preview(slug) : null;
    // A draft or an unknown slug: the client's page (it says "Post not found") with an honest 404.
    if (!preview) return reply.status(404).type('text/html').sendFile('index.html');
    const html = await fs.readFile(indexHtml, 'utf8').catch(() => null);
    // An unbuilt client gets the ordinary answer.
    if (html === null) return reply.callNotFound();
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(injectPostPreview(html, preview, ctx.config.publicUrl));
  });
}

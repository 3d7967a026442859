// Blog: your posts (signed in), published posts (anyone), and the HTML shell of /blog/<slug> with
// link-preview tags for bots that do not run JavaScript. A published post's JSON and page are sent
// from answers prepared once per version of the post, with validators (issue 42, decision 0088).
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
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
import { limitText, POST_RENDER_ERRORS } from './text-limit.js';
import { fail } from '../errors.js';
import { send } from '../plugins/client-files.js';
import { PUBLIC_REVALIDATE } from '../services/blog-answers.js';
import type { PublicAnswer } from '../services/blog.service.js';

/** If-None-Match names this validator (weak comparison, as RFC 9110 has it for GET), or is `*`. */
function alreadyHas(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  const tag = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === tag);
}

/** A 304 from the post's version alone, else the prepared answer (made now when not kept). */
async function sendPublic(request: FastifyRequest, reply: FastifyReply, found: PublicAnswer) {
  if (alreadyHas(request, found.etag)) {
    return reply
      .status(304)
      .header('etag', found.etag)
      .header('cache-control', PUBLIC_REVALIDATE)
      .header('vary', 'accept-encoding')
      .send();
  }
  return send(request, reply, await found.answer());
}

export function blogRoutes(app: ZApp, ctx: RouteContext, opts: RouteOptions) {
  const blog = ctx.services.blog;
  // The same folder app.ts serves the built client from (buildApp's clientDir); read once, like it.
  const indexHtml = path.join(opts.clientDir, 'index.html');
  let shell: Promise<{ html: string; tag: string } | null> | undefined;
  const readShell = () => {
    shell ??= fs.readFile(indexHtml, 'utf8').then(
      (html) => ({ html, tag: crypto.createHash('sha1').update(html).digest('base64url') }),
      () => {
        shell = undefined; // not built yet: asked again next time
        return null;
      },
    );
    return shell;
  };

  app.get(
    '/api/blog/posts',
    { preHandler: ctx.guards.user, config: { errors: [] }, schema: { response: { 200: blogPostList } } },
    async (request, reply) => {
      // Drafts among them: only this person's browser keeps them.
      reply.header('cache-control', 'private, no-cache');
      return blog.listMine(signedInUser(request).id);
    },
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
    async (request, reply) => {
      // A draft or no such post (also one unpublished while its answer was made): no cache keeps
      // the 404, as the post may be published in a minute. A prepared answer sets its own.
      reply.header('cache-control', 'no-store');
      const found = await blog.publicPost(request.params['*']);
      if (found) return sendPublic(request, reply, found);
      throw fail('blog.not_found');
    },
  );

  app.get('/blog/*', { schema: { params: z.object({ '*': z.string() }) } }, async (request, reply) => {
    const slug = request.params['*'];
    const html = await readShell();
    // An unbuilt client gets the ordinary answer.
    if (html === null) return reply.callNotFound();
    const found = slug && slug.length <= 255 && !slug.includes('/') ? await blog.publicPage(slug, html) : null;
    // A draft or an unknown slug: the client's page (it says "Post not found") with an honest 404.
    if (!found) return reply.status(404).type('text/html').sendFile('index.html');
    return sendPublic(request, reply, found);
  });
}

// Blog rules (decision 0092 'Ownership'): posts belong to their author, slugs are unique site-wide, published
// posts are readable by anyone with Markdown rendered sanitised. Rendered once, on save, in a text
// worker (issue 34, decision 0042): a read sends what was stored.
import crypto from 'node:crypto';
import { AppError, fail } from '../errors.js';
import type { BlogPostHead, BlogPostRow, BlogPostsRepository } from '../db/repositories/blog-posts.repository.js';
import type { BlogPost, PublicBlogPost, createBlogPostRequest } from '../../shared/contracts/blog.js';
import { slugify } from '../../shared/slug.js';
import type { ImageRelay } from './image-relay.js';
import { escapeHtml, injectPostPreview } from './blog-page-html.js';
import { createAnswerCache, type PreparedAnswer, prepare, versionTag } from './blog-answers.js';
import type { TextWork } from '../text-work/pool.js';
import type { RenderedPost } from './markdown.js';
import type { z } from 'zod';

export type CreateBlogPostInput = z.output<typeof createBlogPostRequest>;

export interface PostPreview {
  title: string;
  description: string;
  image: string | null;
  slug: string;
  publishedAt: string;
}

/** `images` gives the featured image's display link (through this site); without it, as stored. */
export function toBlogPost(row: BlogPostRow, images?: ImageRelay): BlogPost {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    excerpt: row.excerpt,
    slug: row.slug,
    status: row.status,
    featuredImage: row.featuredImage,
    featuredImageSrc: images ? images.link(row.featuredImage) : row.featuredImage,
    tags: row.tags,
    authorId: row.authorId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function slugFor(input: CreateBlogPostInput): string {
  if (input.slug) {
    // A typed slug is normalised by the same rule, so every URL is clean.
    const slug = slugify(input.slug);
    if (!slug) throw fail('blog.slug_invalid');
    return slug;
  }
  // A title with no Latin letters or digits (e.g. all emoji) still gets a usable slug.
  return slugify(input.title) || `post-${crypto.randomBytes(4).toString('hex')}`;
}

const fieldsOf = (input: CreateBlogPostInput) => ({
  title: input.title,
  content: input.content,
  excerpt: input.excerpt,
  status: input.status,
  featuredImage: input.featuredImage,
  tags: input.tags,
});

/** Bumped when the renderer or its allow-list changes: every post is then rendered again at start. */
const RENDERER_VERSION = 'md-it-2';
/** Bumped when a public answer's shape changes: browsers' copies of the old one are then not reused. */
const ANSWER_VERSION = 'a1';

/** A public answer: its validator (known from the post's version alone) and its bytes, made on demand. */
export interface PublicAnswer {
  etag: string;
  answer(): Promise<PreparedAnswer>;
}

/** A stored post that no longer renders (saved before the bounds): its text as escaped paragraphs. */
export function plainHtml(markdown: string): { html: string; summary: string } {
  const paragraphs = markdown.split(/\n\s*\n/).filter((p) => p.trim());
  const text = markdown.replace(/\s+/g, ' ').trim();
  return {
    html: paragraphs.map((p) => `<p>${escapeHtml(p.trim())}</p>`).join('\n'),
    summary: text.length > 160 ? `${text.slice(0, 159).trimEnd()}…` : text,
  };
}

export function createBlogService(deps: {
  posts: BlogPostsRepository;
  images?: ImageRelay;
  text: Pick<TextWork, 'run'>;
  /** Tells apart renderings made with another SESSION_SECRET (their picture links no longer verify). */
  imageKeyId: string;
  /** PUBLIC_URL: links in posts to its API are made harmless (decision 0088), and link previews name it. */
  site: string;
}) {
  const toPost = (row: BlogPostRow) => toBlogPost(row, deps.images);
  // Another PUBLIC_URL reads other links as this site's: posts are rendered again for it.
  const siteId = crypto.createHash('sha1').update(deps.site).digest('hex').slice(0, 6);
  const htmlVersion = `${RENDERER_VERSION}.${deps.imageKeyId}.${siteId}`;
  const answers = createAnswerCache();

  /** Renders on save: a post that cannot be shown is refused here, with the reason. */
  async function render(markdown: string, authorId: string) {
    const out: RenderedPost = await deps.text.run('post', { markdown, site: deps.site }, authorId);
    if ('refused' in out) throw fail(out.refused === 'too_deep' ? 'blog.too_deep' : 'blog.too_complex');
    return { contentHtml: out.html, summary: out.summary, htmlVersion };
  }

  /** A stored post rendered by an older version: rendered now, stored, never a failure for a reader. */
  async function refresh(row: BlogPostRow): Promise<BlogPostRow> {
    if (row.htmlVersion === htmlVersion && row.contentHtml !== null) return row;
    let rendered: { contentHtml: string; summary: string; htmlVersion: string };
    try {
      rendered = await render(row.content, row.authorId);
    } catch (err) {
      // A refusal is for its author at the next save; readers get the text itself (a busy pool is
      // no refusal: that read answers 503 and a later one renders).
      if (!(err instanceof AppError) || !(err.code.startsWith('blog.') || err.code === 'text.too_complex')) throw err;
      const plain = plainHtml(row.content);
      rendered = { contentHtml: plain.html, summary: plain.summary, htmlVersion };
    }
    await deps.posts.saveRendered(row.id, row.content, rendered);
    return { ...row, ...rendered };
  }

  /**
   * The post's head as the database has it now, one query for all the readers waiting on it: a query
   * already running may have started before a reader arrived (it could miss an edit made since), so
   * later readers share the next one, started when it ends. 30 readers of one post: ~2 queries a round.
   */
  const flights = new Map<string, { running: Promise<unknown>; next: Promise<BlogPostHead | undefined> | null }>();
  function headNow(slug: string): Promise<BlogPostHead | undefined> {
    const flight = flights.get(slug);
    if (flight) {
      flight.next ??= flight.running.then(start, start);
      return flight.next;
    }
    return start();
    function start() {
      const query = deps.posts.findPublishedHeadBySlug(slug);
      const f = flights.get(slug);
      if (f) {
        f.running = query;
        f.next = null;
      } else flights.set(slug, { running: query, next: null });
      const done = () => {
        const now = flights.get(slug);
        if (now?.running === query && now.next === null) flights.delete(slug);
      };
      query.then(done, done);
      return query;
    }
  }

  /** A published post without its text, rendered by this version (an older rendering is made now). */
  async function publishedHead(slug: string): Promise<BlogPostHead | null> {
    const head = await headNow(slug);
    if (!head || (head.htmlVersion === htmlVersion && head.summary !== null)) return head ?? null;
    const found = await deps.posts.findPublishedBySlug(slug);
    return found ? await refresh(found) : null;
  }

  /**
   * What a public answer is made from: the post, its last save (any edit, publish or unpublish sets
   * updatedAt) and its rendering. The same on every node, read from the database on every request.
   */
  const versionOf = (head: BlogPostHead) => `${head.id}.${head.updatedAt.getTime()}.${head.htmlVersion}`;

  const publicPost = (row: BlogPostRow): PublicBlogPost => ({
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    featuredImage: row.featuredImage,
    featuredImageSrc: deps.images ? deps.images.link(row.featuredImage) : row.featuredImage,
    tags: row.tags,
    html: row.contentHtml ?? '',
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  });

  const previewOf = (head: BlogPostHead): PostPreview => ({
    title: head.title,
    description: head.excerpt || (head.summary ?? ''),
    image: head.featuredImage,
    slug: head.slug,
    publishedAt: head.createdAt.toISOString(),
  });

  return {
    async listMine(authorId: string): Promise<BlogPost[]> {
      return (await deps.posts.listByAuthor(authorId)).map(toPost);
    },

    async create(authorId: string, input: CreateBlogPostInput): Promise<BlogPost> {
      const slug = slugFor(input);
      const rendered = await render(input.content, authorId);
      const row = await deps.posts.insert({ ...fieldsOf(input), ...rendered, slug, authorId });
      if (!row) throw fail('blog.slug_taken', undefined, { field: 'slug', slug });
      return toPost(row);
    },

    /** Drafts and published posts alike; someone else's post answers like a missing one. */
    async update(authorId: string, id: number, input: CreateBlogPostInput): Promise<BlogPost> {
      const slug = slugFor(input);
      const rendered = await render(input.content, authorId);
      const row = await deps.posts.updateOwned(id, authorId, { ...fieldsOf(input), ...rendered, slug });
      if (row === 'missing') throw fail('blog.not_found');
      if (row === 'slug_taken') throw fail('blog.slug_taken', undefined, { field: 'slug', slug });
      return toPost(row);
    },

    async remove(authorId: string, id: number): Promise<void> {
      // Someone else's post answers exactly like a missing one: no hint that the id exists.
      if (!(await deps.posts.deleteOwned(id, authorId))) throw fail('blog.not_found');
    },

    /**
     * `GET /api/blog/public/<slug>` of a published post, or null (a draft or no such post): made once
     * per version of the post and kept (blog-answers.ts); a request reads only the post's version.
     */
    async publicPost(slug: string): Promise<PublicAnswer | null> {
      const head = await publishedHead(slug);
      if (!head) return null;
      const version = versionOf(head);
      return {
        etag: versionTag('json', ANSWER_VERSION, version),
        answer: () =>
          answers.get(`json ${slug}`, version, async () => {
            const found = await deps.posts.findPublishedBySlug(slug);
            if (!found) throw fail('blog.not_found');
            // Read after the version: the same one or a newer, sent with its own validator.
            const row = await refresh(found);
            const body = JSON.stringify(publicPost(row));
            return prepare(body, 'application/json; charset=utf-8', versionTag('json', ANSWER_VERSION, versionOf(row)));
          }),
      };
    },

    /**
     * The page /blog/<slug> with the post's link-preview tags, or null. `shell`: the client's
     * index.html and a tag of it (it is read once, and its tag is part of the page's version).
     */
    async publicPage(slug: string, shell: { html: string; tag: string }): Promise<PublicAnswer | null> {
      const head = await publishedHead(slug);
      if (!head) return null;
      const version = `${versionOf(head)}.${shell.tag}`;
      const etag = versionTag('page', ANSWER_VERSION, version);
      return {
        etag,
        answer: () =>
          answers.get(`page ${slug}`, version, () =>
            prepare(injectPostPreview(shell.html, previewOf(head), deps.site), 'text/html; charset=utf-8', etag),
          ),
      };
    },

    /**
     * Renders every post stored by another renderer version or relay key (the backfill after the
     * migration that added the columns); run at start, a batch at a time.
     */
    async refreshStale(batch = 50): Promise<number> {
      const seen = new Set<number>();
      for (;;) {
        const rows = (await deps.posts.listStale(htmlVersion, batch)).filter((r) => !seen.has(r.id));
        for (const row of rows) {
          seen.add(row.id);
          await refresh(row);
        }
        // A row saved again meanwhile is current by its own save; one seen twice is not retried.
        if (rows.length === 0) return seen.size;
      }
    },
  };
}
export type BlogService = ReturnType<typeof createBlogService>;

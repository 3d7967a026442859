// Blog rules (DECISIONS 6): posts belong to their author, slugs are unique site-wide, published
// posts are readable by anyone with Markdown rendered sanitised.
import crypto from 'node:crypto';
import { fail } from '../errors.js';
import type { BlogPostRow, BlogPostsRepository } from '../db/repositories/blog-posts.repository.js';
import type { BlogPost, PublicBlogPost, createBlogPostRequest } from '../../shared/contracts/blog.js';
import { slugify } from '../../shared/slug.js';
import { plainText, renderMarkdown } from './markdown.js';
import type { ImageRelay } from './image-relay.js';
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

export function createBlogService(deps: { posts: BlogPostsRepository; images?: ImageRelay }) {
  const toPost = (row: BlogPostRow) => toBlogPost(row, deps.images);
  return {
    async listMine(authorId: string): Promise<BlogPost[]> {
      return (await deps.posts.listByAuthor(authorId)).map(toPost);
    },

    async create(authorId: string, input: CreateBlogPostInput): Promise<BlogPost> {
      const slug = slugFor(input);
      const row = await deps.posts.insert({ ...fieldsOf(input), slug, authorId });
      if (!row) throw fail('blog.slug_taken', undefined, { field: 'slug', slug });
      return toPost(row);
    },

    /** Drafts and published posts alike; someone else's post answers like a missing one. */
    async update(authorId: string, id: number, input: CreateBlogPostInput): Promise<BlogPost> {
      const slug = slugFor(input);
      const row = await deps.posts.updateOwned(id, authorId, { ...fieldsOf(input), slug });
      if (row === 'missing') throw fail('blog.not_found');
      if (row === 'slug_taken') throw fail('blog.slug_taken', undefined, { field: 'slug', slug });
      return toPost(row);
    },

    async remove(authorId: string, id: number): Promise<void> {
      // Someone else's post answers exactly like a missing one: no hint that the id exists.
      if (!(await deps.posts.deleteOwned(id, authorId))) throw fail('blog.not_found');
    },

    async getPublished(slug: string): Promise<PublicBlogPost> {
      const row = await deps.posts.findPublishedBySlug(slug);
      if (!row) throw fail('blog.not_found');
      return {
        title: row.title,
        slug: row.slug,
        excerpt: row.excerpt,
        featuredImage: row.featuredImage,
        featuredImageSrc: deps.images ? deps.images.link(row.featuredImage) : row.featuredImage,
        tags: row.tags,
        html: renderMarkdown(row.content, deps.images?.link),
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      };
    },

    /** What a link preview needs for a published post, or null. */
    async preview(slug: string): Promise<PostPreview | null> {
      const row = await deps.posts.findPublishedBySlug(slug);
      if (!row) return null;
      return {
        title: row.title,
        description: row.excerpt || plainText(row.content),
        image: row.featuredImage,
        slug: row.slug,
        publishedAt: row.createdAt.toISOString(),
      };
    },
  };
}
export type BlogService = ReturnType<typeof createBlogService>;

// Blog posts (decision 0092 'Tables', 'Blog post rules', 'Constants', 'Ownership').
import { z } from 'zod';

export const BLOG_STATUSES = ['draft', 'published'] as const;
export const BLOG_LIMITS = {
  title: 255,
  excerpt: 500,
  slug: 255,
  featuredImage: 500,
  content: 100_000,
  tags: 20,
  tag: 50,
} as const;

export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
}

/** Optional text: trimmed, blank or missing becomes null. */
export const optionalText = (max: number, label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

export const optionalHttpUrl = (max: number, label: string) =>
  optionalText(max, label).refine((v) => v === null || isHttpUrl(v), `${label} must be an http(s) URL`);

/** Tags as a list or one comma-separated string; trimmed, blanks dropped, duplicates removed. */
export const tagList = (maxTags: number, maxLen: number, strip: RegExp = /^$/) =>
  z
    .union([z.array(z.string({ error: 'Tags must be text' })), z.string()], { error: 'Tags must be a list of text' })
    .nullish()
    .transform((v) => {
      const raw = v == null ? [] : typeof v === 'string' ? v.split(',') : v;
      return [...new Set(raw.map((t) => t.trim().replace(strip, '').trim()).filter(Boolean))];
    })
    .refine((tags) => tags.length <= maxTags, `At most ${maxTags} tags are allowed`)
    .refine((tags) => tags.every((t) => t.length <= maxLen), `Each tag must be at most ${maxLen} characters`);

export const createBlogPostRequest = z.object({
  title: z
    .string({ error: 'Title is required' })
    .trim()
    .min(1, 'Title is required')
    .max(BLOG_LIMITS.title, `Title must be at most ${BLOG_LIMITS.title} characters`),
  content: z
    .string({ error: 'Content is required' })
    .refine((v) => v.trim().length > 0, 'Content is required')
    .refine((v) => v.length <= BLOG_LIMITS.content, `Content must be at most ${BLOG_LIMITS.content} characters`),
  excerpt: optionalText(BLOG_LIMITS.excerpt, 'Excerpt'),
  slug: optionalText(BLOG_LIMITS.slug, 'Slug'),
  status: z
    .enum(BLOG_STATUSES, { error: 'Status must be draft or published' })
    .nullish()
    .transform((v) => v ?? 'draft'),
  featuredImage: optionalHttpUrl(BLOG_LIMITS.featuredImage, 'Featured image'),
  tags: tagList(BLOG_LIMITS.tags, BLOG_LIMITS.tag),
});
export type CreateBlogPostRequest = z.input<typeof createBlogPostRequest>;
/** Editing a post (draft or published) sends every field again, like creating it. */
export const updateBlogPostRequest = createBlogPostRequest;

export const blogPost = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  excerpt: z.string().nullable(),
  slug: z.string(),
  status: z.string(),
  featuredImage: z.string().nullable(),
  /** Where a page loads the featured image from: this site (a relay link for another host's picture). */
  featuredImageSrc: z.string().nullable(),
  tags: z.array(z.string()),
  authorId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BlogPost = z.infer<typeof blogPost>;
export const blogPostList = z.array(blogPost);

/** A published post as anyone may read it: Markdown already rendered to sanitised HTML. */
export const publicBlogPost = z.object({
  title: z.string(),
  slug: z.string(),
  excerpt: z.string().nullable(),
  featuredImage: z.string().nullable(),
  /** Where a page loads the featured image from: this site (a relay link for another host's picture). */
  featuredImageSrc: z.string().nullable(),
  tags: z.array(z.string()),
  html: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PublicBlogPost = z.infer<typeof publicBlogPost>;

export const blogPostIdParams = z.object({
  id: z.coerce.number({ error: 'Post id must be a number' }).int('Post id must be a number').min(1).max(2_147_483_647),
});
/** `GET /api/blog/public/*`: the slug is the wildcard (slugs may be longer than a named parameter allows). */
export const blogSlugParams = z.object({
  '*': z.string().min(1, 'Post not found').max(BLOG_LIMITS.slug, 'Post not found'),
});

import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { blogPosts } from '../schema.js';

export type BlogPostRow = typeof blogPosts.$inferSelect;
/** A post without its text and rendering: what says which version of it is published (issue 42). */
export type BlogPostHead = Omit<BlogPostRow, 'content' | 'contentHtml'>;
export type NewBlogPostRow = typeof blogPosts.$inferInsert;

function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e)
    if (e.code === '23505') return true;
  return false;
}

export function createBlogPostsRepository(db: Db) {
  return {
    async listByAuthor(authorId: string): Promise<BlogPostRow[]> {
      return db
        .select()
        .from(blogPosts)
        .where(eq(blogPosts.authorId, authorId))
        .orderBy(desc(blogPosts.createdAt), desc(blogPosts.id));
    },
    /** Inserts a post; undefined when the slug is taken (the unique index decides, so races are safe). */
    async insert(data: NewBlogPostRow): Promise<BlogPostRow | undefined> {
      const [row] = await db.insert(blogPosts).values(data).onConflictDoNothing({ target: blogPosts.slug }).returning();
      return row;
    },
    /**
     * Updates only when the post belongs to authorId: the row, 'missing' (missing or someone
     * else's), or 'slug_taken' when another post has the slug (the unique index decides).
     */
    async updateOwned(
      id: number,
      authorId: string,
      data: Omit<NewBlogPostRow, 'authorId'>,
    ): Promise<BlogPostRow | 'missing' | 'slug_taken'> {
      try {
        const [row] = await db
          .update(blogPosts)
          .set({ ...data, updatedAt: new Date() })
          .where(and(eq(blogPosts.id, id), eq(blogPosts.authorId, authorId)))
          .returning();
        return row ?? 'missing';
      } catch (err) {
        if (isUniqueViolation(err)) return 'slug_taken';
        throw err;
      }
    },
    /** Deletes only when the post belongs to authorId; false otherwise (missing or someone else's). */
    async deleteOwned(id: number, authorId: string): Promise<boolean> {
      const rows = await db
        .delete(blogPosts)
        .where(and(eq(blogPosts.id, id), eq(blogPosts.authorId, authorId)))
        .returning({ id: blogPosts.id });
      return rows.length > 0;
    },
    /** Posts rendered with another renderer or relay key than `version` (or never), a batch at a time. */
    async listStale(version: string, limit: number): Promise<BlogPostRow[]> {
      return db.select().from(blogPosts).where(sql`${blogPosts.htmlVersion} IS DISTINCT FROM ${version}`).limit(limit);
    },
    /** Stores a post's rendering; only over the content it was made from (a save in between wins). */
    async saveRendered(
      id: number,
      content: string,
      rendered: { contentHtml: string; summary: string; htmlVersion: string },
    ): Promise<void> {
      await db
        .update(blogPosts)
        .set(rendered)
        .where(and(eq(blogPosts.id, id), eq(blogPosts.content, content)));
    },
    /** A published post's fields but its text and HTML (a read sent from memory needs no more). */
    async findPublishedHeadBySlug(slug: string): Promise<BlogPostHead | undefined> {
      const { content: _c, contentHtml: _h, ...head } = getTableColumns(blogPosts);
      const [row] = await db
        .select(head)
        .from(blogPosts)
        .where(and(eq(blogPosts.slug, slug), eq(blogPosts.status, 'published')));
      return row;
    },
    async findPublishedBySlug(slug: string): Promise<BlogPostRow | undefined> {
      const [row] = await db
        .select()
        .from(blogPosts)
        .where(and(eq(blogPosts.slug, slug), eq(blogPosts.status, 'published')));
      return row;
    },
  };
}
export type BlogPostsRepository = ReturnType<typeof createBlogPostsRepository>;

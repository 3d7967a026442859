import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../client.js';
import { blogPosts } from '../schema.js';

export type BlogPostRow = typeof blogPosts.$inferSelect;
export type NewBlogPostRow = typeof blogPosts.$inferInsert;

export function createBlogPostsRepository(db: Db) {
  return {
    async listByAuthor(authorId: string): Promise<BlogPostRow[]> {
      return db.select().from(blogPosts).where(eq(blogPosts.authorId, authorId)).orderBy(desc(blogPosts.createdAt), desc(blogPosts.id));
    },
    /** Inserts a post; undefined when the slug is taken (the unique index decides, so races are safe). */
    async insert(data: NewBlogPostRow): Promise<BlogPostRow | undefined> {
      const [row] = await db.insert(blogPosts).values(data).onConflictDoNothing({ target: blogPosts.slug }).returning();
      return row;
    },
    /** Deletes only when the post belongs to authorId; false otherwise (missing or someone else's). */
    async deleteOwned(id: number, authorId: string): Promise<boolean> {
      const rows = await db
        .delete(blogPosts)
        .where(and(eq(blogPosts.id, id), eq(blogPosts.authorId, authorId)))
        .returning({ id: blogPosts.id });
      return rows.length > 0;
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

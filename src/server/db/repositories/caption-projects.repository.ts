import { and, desc, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { captionProjects, studioUploads } from '../schema.js';

export type CaptionProjectRow = typeof captionProjects.$inferSelect;
export type NewCaptionProjectRow = typeof captionProjects.$inferInsert;
export type StudioUploadRow = typeof studioUploads.$inferSelect;

const LIST_LIMIT = 100;

export function createCaptionProjectsRepository(db: Db) {
  return {
    async insert(row: NewCaptionProjectRow): Promise<CaptionProjectRow> {
      const [saved] = await db.insert(captionProjects).values(row).returning();
      return saved;
    },
    /** Only the owner's: someone else's project is not found. */
    async find(id: string, userId: string): Promise<CaptionProjectRow | undefined> {
      const [row] = await db
        .select()
        .from(captionProjects)
        .where(and(eq(captionProjects.id, id), eq(captionProjects.userId, userId)));
      return row;
    },
    async list(userId: string): Promise<CaptionProjectRow[]> {
      return db
        .select()
        .from(captionProjects)
        .where(eq(captionProjects.userId, userId))
        .orderBy(desc(captionProjects.updatedAt))
        .limit(LIST_LIMIT);
    },
    /** One guarded statement: saved only when the revision is still `revision` (else undefined). */
    async save(
      id: string,
      userId: string,
      revision: number,
      patch: { lines: unknown; style: unknown },
    ): Promise<CaptionProjectRow | undefined> {
      const [row] = await db
        .update(captionProjects)
        .set({
          lines: patch.lines,
          style: patch.style,
          revision: sql`${captionProjects.revision} + 1`,
          updatedAt: new Date(),
        })
        .where(
          and(eq(captionProjects.id, id), eq(captionProjects.userId, userId), eq(captionProjects.revision, revision)),
        )
        .returning();
      return row;
    },

    // Uploads
    async insertUpload(row: typeof studioUploads.$inferInsert): Promise<void> {
      await db.insert(studioUploads).values(row);
    },
    async findUpload(id: string): Promise<StudioUploadRow | undefined> {
      const [row] = await db.select().from(studioUploads).where(eq(studioUploads.id, id));
      return row;
    },
    async markUploadReady(id: string, resultKey: string, meta: Record<string, unknown>): Promise<void> {
      await db.update(studioUploads).set({ status: 'ready', resultKey, meta }).where(eq(studioUploads.id, id));
    },
    async deleteUpload(id: string): Promise<void> {
      await db.delete(studioUploads).where(eq(studioUploads.id, id));
    },
    async listExpiredUploads(now = new Date(), limit = 200): Promise<StudioUploadRow[]> {
      return db.select().from(studioUploads).where(lte(studioUploads.expiresAt, now)).limit(limit);
    },
  };
}
export type CaptionProjectsRepository = ReturnType<typeof createCaptionProjectsRepository>;

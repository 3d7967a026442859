import { and, desc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { captionProjects, studioUploads, users } from '../schema.js';

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
    /**
     * Inserts an unfinished upload unless its owner already has `maxOpen` of them or their declared
     * bytes would pass `maxBytes` (issue 34). The owner's row is locked, so parallel creations queue.
     */
    async insertUpload(
      row: typeof studioUploads.$inferInsert & { size: number },
      bounds: { maxOpen: number; maxBytes: number; now: Date },
    ): Promise<'ok' | 'too_many' | 'too_large'> {
      return db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, row.userId)).for('update');
        const [open] = await tx
          .select({ n: sql<number>`count(*)::int`, bytes: sql<string>`coalesce(sum(${studioUploads.size}), 0)` })
          .from(studioUploads)
          .where(
            and(
              eq(studioUploads.userId, row.userId),
              eq(studioUploads.status, 'receiving'),
              gt(studioUploads.expiresAt, bounds.now),
            ),
          );
        if (open.n >= bounds.maxOpen) return 'too_many';
        if (Number(open.bytes) + row.size > bounds.maxBytes) return 'too_large';
        await tx.insert(studioUploads).values(row);
        return 'ok';
      });
    },
    /** An unfinished upload made progress: it stays until `expiresAt` without more. */
    async touchUpload(id: string, expiresAt: Date): Promise<void> {
      await db
        .update(studioUploads)
        .set({ expiresAt })
        .where(and(eq(studioUploads.id, id), eq(studioUploads.status, 'receiving')));
    },
    async findUpload(id: string): Promise<StudioUploadRow | undefined> {
      const [row] = await db.select().from(studioUploads).where(eq(studioUploads.id, id));
      return row;
    },
    async markUploadReady(
      id: string,
      resultKey: string,
      meta: Record<string, unknown>,
      expiresAt: Date,
    ): Promise<void> {
      await db
        .update(studioUploads)
        .set({ status: 'ready', resultKey, meta, expiresAt })
        .where(eq(studioUploads.id, id));
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

import { and, eq, gt, lte } from 'drizzle-orm';
import type { Db } from '../client.js';
import { mediaResults } from '../schema.js';

export type MediaResult = typeof mediaResults.$inferSelect;
export type NewMediaResult = typeof mediaResults.$inferInsert;

export function createMediaResultsRepository(db: Db) {
  return {
    /** A result that has not expired yet. */
    async findFresh(key: string, now = new Date()): Promise<MediaResult | undefined> {
      const [row] = await db
        .select()
        .from(mediaResults)
        .where(and(eq(mediaResults.key, key), gt(mediaResults.expiresAt, now)));
      return row;
    },
    async findAny(key: string): Promise<MediaResult | undefined> {
      const [row] = await db.select().from(mediaResults).where(eq(mediaResults.key, key));
      return row;
    },
    async findByStorageKey(storageKey: string): Promise<MediaResult | undefined> {
      const [row] = await db.select().from(mediaResults).where(eq(mediaResults.storageKey, storageKey));
      return row;
    },
    async upsert(row: NewMediaResult): Promise<MediaResult> {
      const [saved] = await db
        .insert(mediaResults)
        .values(row)
        .onConflictDoUpdate({
          target: mediaResults.key,
          set: {
            kind: row.kind,
            platform: row.platform,
            videoId: row.videoId,
            storageKey: row.storageKey,
            contentType: row.contentType,
            size: row.size,
            meta: row.meta,
            createdAt: new Date(),
            expiresAt: row.expiresAt,
          },
        })
        .returning();
      return saved;
    },
    async listExpired(now = new Date(), limit = 200): Promise<MediaResult[]> {
      return db.select().from(mediaResults).where(lte(mediaResults.expiresAt, now)).limit(limit);
    },
    async delete(key: string): Promise<void> {
      await db.delete(mediaResults).where(eq(mediaResults.key, key));
    },
  };
}
export type MediaResultsRepository = ReturnType<typeof createMediaResultsRepository>;

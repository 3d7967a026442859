// Download history and the free quota's reservations (DECISIONS 3). A slot is reserved in the same
// transaction that locks the user row, so parallel requests can never exceed the limit.
import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { downloads, users } from '../schema.js';

export type DownloadRow = typeof downloads.$inferSelect;
export type DownloadMeta = Pick<typeof downloads.$inferInsert, 'url' | 'videoId' | 'title' | 'author' | 'thumbnail' | 'duration' | 'views' | 'likes' | 'quality'>;

export function createDownloadsRepository(db: Db) {
  return {
    /**
     * Reserves one download slot: locks the user, fails reservations older than `staleBefore`
     * (left by a crashed process), then reserves when `limit` (null = unlimited) allows.
     * Returns the reserved download row id, or null when the quota is used up.
     */
    async reserve(userId: string, meta: DownloadMeta, limit: number | null, staleBefore: Date): Promise<number | null> {
      return db.transaction(async (tx) => {
        const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
        if (!user) return null;
        const stale = await tx
          .update(downloads)
          .set({ status: 'failed', completedAt: new Date() })
          .where(and(eq(downloads.userId, userId), eq(downloads.status, 'reserved'), lt(downloads.createdAt, staleBefore)))
          .returning({ id: downloads.id });
        let reserved = user.downloadsReserved;
        if (stale.length) reserved = Math.max(0, reserved - stale.length);
        if (limit !== null && user.downloadCount + reserved >= limit) {
          if (stale.length) await tx.update(users).set({ downloadsReserved: reserved }).where(eq(users.id, userId));
          return null;
        }
        const [row] = await tx.insert(downloads).values({ ...meta, userId, status: 'reserved' }).returning({ id: downloads.id });
        await tx.update(users).set({ downloadsReserved: reserved + 1 }).where(eq(users.id, userId));
        return row.id;
      });
    },

    /** Turns a reservation into a counted download. False when it was no longer reserved. */
    async commit(userId: string, downloadId: number, bytes: number): Promise<boolean> {
      return db.transaction(async (tx) => {
        const done = await tx
          .update(downloads)
          .set({ status: 'completed', bytes, completedAt: new Date() })
          .where(and(eq(downloads.id, downloadId), eq(downloads.userId, userId), eq(downloads.status, 'reserved')))
          .returning({ id: downloads.id });
        if (!done.length) return false;
        await tx
          .update(users)
          .set({ downloadCount: sql`${users.downloadCount} + 1`, downloadsReserved: sql`greatest(${users.downloadsReserved} - 1, 0)`, updatedAt: new Date() })
          .where(eq(users.id, userId));
        return true;
      });
    },

    /** Gives a reserved slot back after a failed transfer. */
    async release(userId: string, downloadId: number, bytes: number): Promise<boolean> {
      return db.transaction(async (tx) => {
        const failed = await tx
          .update(downloads)
          .set({ status: 'failed', bytes, completedAt: new Date() })
          .where(and(eq(downloads.id, downloadId), eq(downloads.userId, userId), eq(downloads.status, 'reserved')))
          .returning({ id: downloads.id });
        if (!failed.length) return false;
        await tx
          .update(users)
          .set({ downloadsReserved: sql`greatest(${users.downloadsReserved} - 1, 0)` })
          .where(eq(users.id, userId));
        return true;
      });
    },

    async recent(userId: string, limit = 20): Promise<DownloadRow[]> {
      return db
        .select()
        .from(downloads)
        .where(and(eq(downloads.userId, userId), eq(downloads.status, 'completed'), isNull(downloads.hiddenAt)))
        .orderBy(desc(downloads.completedAt), desc(downloads.id))
        .limit(limit);
    },

    /** Hides history; counts and reservations are untouched. */
    async hideAll(userId: string): Promise<number> {
      const rows = await db
        .update(downloads)
        .set({ hiddenAt: new Date() })
        .where(and(eq(downloads.userId, userId), isNull(downloads.hiddenAt)))
        .returning({ id: downloads.id });
      return rows.length;
    },
  };
}

export type DownloadsRepository = ReturnType<typeof createDownloadsRepository>;

// Download history and the free quota's reservations (decision 0092 'The server decides'). A slot is reserved by one
// statement whose row-locking UPDATE checks the limit, so parallel requests can never exceed it.
import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { downloads, users } from '../schema.js';
import { DEFAULT_PLATFORM } from '../../platforms/default.js';

export type DownloadRow = typeof downloads.$inferSelect;
export type DownloadMeta = Pick<
  typeof downloads.$inferInsert,
  'url' | 'platform' | 'videoId' | 'title' | 'author' | 'hasThumbnail' | 'duration' | 'views' | 'likes' | 'quality'
>;

type Rows = Array<Record<string, unknown>>;
const rowsOf = (r: unknown): Rows => (Array.isArray(r) ? r : ((r as { rows?: Rows }).rows ?? []));

export function createDownloadsRepository(db: Db) {
  /** One statement: the row-locking UPDATE re-checks the limit, so concurrent calls cannot overshoot. */
  async function reserveFast(userId: string, meta: DownloadMeta, limit: number | null): Promise<number | null> {
    const rows = rowsOf(
      await db.execute(sql`
        with u as (
          update ${users} set downloads_reserved = downloads_reserved + 1
          where id = ${userId} and (${limit}::int is null or download_count + downloads_reserved < ${limit}::int)
          returning id)
        insert into ${downloads} (user_id, url, platform, video_id, title, author, has_thumbnail, duration, views, likes, quality, status)
        select u.id, ${meta.url}, ${meta.platform ?? DEFAULT_PLATFORM}, ${meta.videoId ?? null}, ${meta.title ?? null},
          ${meta.author ?? null}, ${meta.hasThumbnail ?? false},
          ${meta.duration ?? null}::int, ${meta.views ?? null}::bigint, ${meta.likes ?? null}::bigint, ${meta.quality ?? null}, 'reserved'
        from u
        returning id`),
    );
    return rows.length ? Number(rows[0].id) : null;
  }
  /** One statement: settle a reservation and move the user's counters with it. */
  async function settle(
    userId: string,
    downloadId: number,
    bytes: number,
    outcome: 'completed' | 'failed',
  ): Promise<boolean> {
    const counted = outcome === 'completed' ? sql`download_count + 1` : sql`download_count`;
    const rows = rowsOf(
      await db.execute(sql`
        with d as (
          update ${downloads} set status = ${outcome}, bytes = ${bytes}::bigint, completed_at = now()
          where id = ${downloadId} and user_id = ${userId} and status = 'reserved'
          returning user_id)
        update ${users} set download_count = ${counted}, downloads_reserved = greatest(downloads_reserved - 1, 0), updated_at = now()
        where id in (select user_id from d)
        returning id`),
    );
    return rows.length > 0;
  }
  return {
    /**
     * Reserves one download slot: locks the user, fails reservations older than `staleBefore`
     * (left by a crashed process), then reserves when `limit` (null = unlimited) allows.
     * Returns the reserved download row id, or null when the quota is used up.
     */
    async reserve(userId: string, meta: DownloadMeta, limit: number | null, staleBefore: Date): Promise<number | null> {
      const fast = await reserveFast(userId, meta, limit);
      if (fast !== null) return fast;
      // Refused: maybe because of reservations a crashed process left behind; check under a lock.
      return db.transaction(async (tx) => {
        const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
        if (!user) return null;
        const stale = await tx
          .update(downloads)
          .set({ status: 'failed', completedAt: new Date() })
          .where(
            and(eq(downloads.userId, userId), eq(downloads.status, 'reserved'), lt(downloads.createdAt, staleBefore)),
          )
          .returning({ id: downloads.id });
        let reserved = user.downloadsReserved;
        if (stale.length) reserved = Math.max(0, reserved - stale.length);
        if (limit !== null && user.downloadCount + reserved >= limit) {
          if (stale.length) await tx.update(users).set({ downloadsReserved: reserved }).where(eq(users.id, userId));
          return null;
        }
        const [row] = await tx
          .insert(downloads)
          .values({ ...meta, userId, status: 'reserved' })
          .returning({ id: downloads.id });
        await tx
          .update(users)
          .set({ downloadsReserved: reserved + 1 })
          .where(eq(users.id, userId));
        return row.id;
      });
    },

    /** Turns a reservation into a counted download. False when it was no longer reserved. */
    commit: (userId: string, downloadId: number, bytes: number) => settle(userId, downloadId, bytes, 'completed'),

    /** Gives a reserved slot back after a failed transfer. */
    release: (userId: string, downloadId: number, bytes: number) => settle(userId, downloadId, bytes, 'failed'),

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

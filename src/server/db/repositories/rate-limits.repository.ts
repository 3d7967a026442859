// Fixed-window counters shared by every app node on one PostgreSQL database.
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { rateLimitWindows } from '../schema.js';

export function createRateLimitsRepository(db: Db) {
  return {
    /** Counts one hit in the window; returns the window's count after it. One statement. */
    async hit(key: string, windowStart: number, resetAt: number): Promise<number> {
      const [row] = await db
        .insert(rateLimitWindows)
        .values({ key, windowStart, resetAt, count: 1 })
        .onConflictDoUpdate({
          target: [rateLimitWindows.key, rateLimitWindows.windowStart],
          set: { count: sql`${rateLimitWindows.count} + 1` },
        })
        .returning({ count: rateLimitWindows.count });
      return row.count;
    },
    async reset(key: string, windowStart: number): Promise<void> {
      await db
        .delete(rateLimitWindows)
        .where(and(eq(rateLimitWindows.key, key), eq(rateLimitWindows.windowStart, windowStart)));
    },
    /** Takes back one hit of the window (never below 0). */
    async unhit(key: string, windowStart: number): Promise<void> {
      await db
        .update(rateLimitWindows)
        .set({ count: sql`greatest(${rateLimitWindows.count} - 1, 0)` })
        .where(and(eq(rateLimitWindows.key, key), eq(rateLimitWindows.windowStart, windowStart)));
    },
    /** Drops windows that ended before `now`. */
    async prune(now: number): Promise<void> {
      await db.delete(rateLimitWindows).where(lt(rateLimitWindows.resetAt, now));
    },
  };
}
export type RateLimitsRepository = ReturnType<typeof createRateLimitsRepository>;

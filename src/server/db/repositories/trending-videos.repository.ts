import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { trendingVideoBoosts, trendingVideos } from '../schema.js';

export type TrendingVideoRow = typeof trendingVideos.$inferSelect;
export type NewTrendingVideoRow = typeof trendingVideos.$inferInsert;
export type TrendingVideoWithBoost = TrendingVideoRow & { boosted: boolean };
export type BoostOutcome = { kind: 'boosted'; video: TrendingVideoRow } | { kind: 'already' } | { kind: 'missing' };

const LIST_LIMIT = 500;

export function createTrendingVideosRepository(db: Db) {
  const boostedBy = (userId: string) =>
    sql<boolean>`exists (select 1 from ${trendingVideoBoosts}
      where ${trendingVideoBoosts.videoId} = ${trendingVideos.id} and ${trendingVideoBoosts.userId} = ${userId})`;

  return {
    /** Highest score first, newest first among equals (decision 0800). */
    async list(opts: { platform?: string; viewerId: string }): Promise<TrendingVideoWithBoost[]> {
      const rows = await db
        .select({ video: trendingVideos, boosted: boostedBy(opts.viewerId) })
        .from(trendingVideos)
        .where(opts.platform ? eq(trendingVideos.platform, opts.platform) : undefined)
        .orderBy(desc(trendingVideos.trendingScore), desc(trendingVideos.createdAt), desc(trendingVideos.id))
        .limit(LIST_LIMIT);
      return rows.map((r) => ({ ...r.video, boosted: Boolean(r.boosted) }));
    },
    async insert(data: NewTrendingVideoRow): Promise<TrendingVideoRow> {
      const [row] = await db.insert(trendingVideos).values(data).returning();
      return row;
    },
    async findById(id: number): Promise<TrendingVideoRow | undefined> {
      const [row] = await db.select().from(trendingVideos).where(eq(trendingVideos.id, id));
      return row;
    },
    async delete(id: number): Promise<boolean> {
      const rows = await db
        .delete(trendingVideos)
        .where(eq(trendingVideos.id, id))
        .returning({ id: trendingVideos.id });
      return rows.length > 0;
    },
    /**
     * Adds 1 to the score once per user per video, in ONE statement: the boost row (primary key
     * video+user, ON CONFLICT DO NOTHING) and the increment commit together, so parallel boosts
     * never double-count and a lost race changes nothing. Only a refused boost costs a second read.
     */
    async boost(id: number, userId: string): Promise<BoostOutcome> {
      try {
        const inserted = db.$with('inserted').as(
          db
            .insert(trendingVideoBoosts)
            .select(
              db
                .select({
                  videoId: trendingVideos.id,
                  userId: sql<string>`${userId}::varchar`.as('user_id'),
                  createdAt: sql<Date>`now()`.as('created_at'),
                })
                .from(trendingVideos)
                .where(eq(trendingVideos.id, id)),
            )
            .onConflictDoNothing()
            .returning({ videoId: trendingVideoBoosts.videoId }),
        );
        const [video] = await db
          .with(inserted)
          .update(trendingVideos)
          .set({ trendingScore: sql`${trendingVideos.trendingScore} + 1`, updatedAt: sql`now()` })
          .where(sql`${trendingVideos.id} in (select ${inserted.videoId} from ${inserted})`)
          .returning();
        if (video) return { kind: 'boosted', video };
      } catch (err) {
        // The video was deleted while boosting (foreign key violation).
        if (pgCode(err) !== '23503') throw err;
      }
      const [exists] = await db.select({ id: trendingVideos.id }).from(trendingVideos).where(eq(trendingVideos.id, id));
      return exists ? { kind: 'already' } : { kind: 'missing' };
    },
  };
}
export type TrendingVideosRepository = ReturnType<typeof createTrendingVideosRepository>;

function pgCode(err: unknown): string | undefined {
  for (let e: unknown = err, i = 0; e && i < 4; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

// Storage of trends data: first-party observations, dated snapshots from outside sources,
// collector runs and news items.
import { and, desc, eq, gte, like, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { collectorRuns, newsItems, trendSnapshots, videoObservations } from '../schema.js';
import { firstPartyRollup, type FirstPartyRollup } from './trends-rollup.js';

export type ObservationRow = typeof videoObservations.$inferSelect;
export type NewObservation = typeof videoObservations.$inferInsert;
export type SnapshotRow = typeof trendSnapshots.$inferSelect;
export type CollectorRunRow = typeof collectorRuns.$inferSelect;
export type NewsRow = typeof newsItems.$inferSelect;
export type NewNews = typeof newsItems.$inferInsert;

export function createTrendsRepository(db: Db) {
  return {
    async recordObservation(row: NewObservation): Promise<void> {
      await db.insert(videoObservations).values(row);
    },
    async recordObservations(rows: NewObservation[]): Promise<void> {
      if (rows.length) await db.insert(videoObservations).values(rows);
    },
    /** First-party figures for the 14 days before `now`, grouped in SQL. */
    firstPartyRollup(now: Date): Promise<FirstPartyRollup> {
      return firstPartyRollup(db, now);
    },
    /** Observations made since `since`, oldest first (aggregation keeps the latest per video). */
    async observationsSince(since: Date): Promise<ObservationRow[]> {
      return db
        .select()
        .from(videoObservations)
        .where(gte(videoObservations.observedAt, since))
        .orderBy(videoObservations.observedAt);
    },
    async addSnapshot(source: string, kind: string, data: unknown, collectedAt = new Date()): Promise<SnapshotRow> {
      const [row] = await db.insert(trendSnapshots).values({ source, kind, data, collectedAt }).returning();
      return row;
    },
    async latestSnapshot(source: string, kind: string): Promise<SnapshotRow | undefined> {
      const [row] = await db
        .select()
        .from(trendSnapshots)
        .where(and(eq(trendSnapshots.source, source), eq(trendSnapshots.kind, kind)))
        .orderBy(desc(trendSnapshots.collectedAt), desc(trendSnapshots.id))
        .limit(1);
      return row;
    },
    /** The newest (or oldest) snapshot collected in [from, to]; the "about 24 h ago" comparison. */
    async snapshotBetween(
      source: string,
      kind: string,
      from: Date,
      to: Date,
      pick: 'newest' | 'oldest',
    ): Promise<SnapshotRow | undefined> {
      const rows = await db
        .select()
        .from(trendSnapshots)
        .where(
          and(
            eq(trendSnapshots.source, source),
            eq(trendSnapshots.kind, kind),
            gte(trendSnapshots.collectedAt, from),
            lte(trendSnapshots.collectedAt, to),
          ),
        )
        .orderBy(pick === 'newest' ? desc(trendSnapshots.collectedAt) : trendSnapshots.collectedAt)
        .limit(1);
      return rows[0];
    },
    async startRun(source: string, startedAt = new Date()): Promise<number> {
      const [row] = await db.insert(collectorRuns).values({ source, startedAt }).returning({ id: collectorRuns.id });
      return row.id;
    },
    async finishRun(id: number, items: number, error: string | null): Promise<void> {
      await db.update(collectorRuns).set({ finishedAt: new Date(), items, error }).where(eq(collectorRuns.id, id));
    },
    /** The newest run of each source. */
    async latestRuns(): Promise<CollectorRunRow[]> {
      const rows = await db.execute<{ id: number }>(
        sql`select max(${collectorRuns.id}) as id from ${collectorRuns} group by ${collectorRuns.source}`,
      );
      const list = Array.isArray(rows) ? rows : ((rows as { rows?: Array<{ id: number }> }).rows ?? []);
      const ids = list.map((r) => Number(r.id));
      if (ids.length === 0) return [];
      return db
        .select()
        .from(collectorRuns)
        .where(
          sql`${collectorRuns.id} in (${sql.join(
            ids.map((i) => sql`${i}`),
            sql`, `,
          )})`,
        )
        .orderBy(collectorRuns.source);
    },
    /** When the newest run of a source (or of any source starting with `prefix*`) started. */
    async lastRunStartedAt(source: string): Promise<Date | null> {
      const match = source.endsWith('*')
        ? like(collectorRuns.source, `${source.slice(0, -1)}%`)
        : eq(collectorRuns.source, source);
      const [row] = await db
        .select({ at: collectorRuns.startedAt })
        .from(collectorRuns)
        .where(match)
        .orderBy(desc(collectorRuns.startedAt))
        .limit(1);
      return row?.at ?? null;
    },
    /** Drops what no answer reads any more (see the retention job in trends-collectors). */
    async prune(limits: {
      observationsBefore: Date;
      snapshotsBefore: Date;
      runsBefore: Date;
      newsBefore: Date;
    }): Promise<void> {
      await db.delete(videoObservations).where(lt(videoObservations.observedAt, limits.observationsBefore));
      // Keep the newest snapshot of each source whatever its age: it is still what the screen shows.
      await db.execute(sql`delete from ${trendSnapshots} s where s.collected_at < ${limits.snapshotsBefore.toISOString()}::timestamptz
        and s.id <> (select max(id) from ${trendSnapshots} x where x.source = s.source and x.kind = s.kind)`);
      await db.delete(collectorRuns).where(lt(collectorRuns.startedAt, limits.runsBefore));
      await db.delete(newsItems).where(lt(newsItems.publishedAt, limits.newsBefore));
    },
    async runsOf(source: string): Promise<CollectorRunRow[]> {
      return db.select().from(collectorRuns).where(eq(collectorRuns.source, source)).orderBy(collectorRuns.id);
    },
    /** Inserts items not seen before (by dedupe key); returns how many were new. */
    async addNews(rows: NewNews[]): Promise<number> {
      if (rows.length === 0) return 0;
      const inserted = await db
        .insert(newsItems)
        .values(rows)
        .onConflictDoNothing({ target: newsItems.dedupeKey })
        .returning({ id: newsItems.id });
      return inserted.length;
    },
    async latestNews(limit: number): Promise<NewsRow[]> {
      return db.select().from(newsItems).orderBy(desc(newsItems.publishedAt), desc(newsItems.id)).limit(limit);
    },
  };
}

export type TrendsRepository = ReturnType<typeof createTrendsRepository>;

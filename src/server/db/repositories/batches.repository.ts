// Batch downloads and their items (issue 21). Item state moves by single statements guarded on the
// current state, so a job run twice (a worker killed mid-job) finishes an item once.
import { and, asc, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { batchItems, batches } from '../schema.js';

export type Batch = typeof batches.$inferSelect;
export type BatchItemRow = typeof batchItems.$inferSelect;

export function createBatchesRepository(db: Db) {
  return {
    async create(
      batch: { id: string; userId: string; quality: string; expiresAt: Date },
      items: Array<{ url: string; status: string; errorCode?: string; errorMessage?: string }>,
    ) {
      return db.transaction(async (tx) => {
        await tx.insert(batches).values(batch);
        return tx
          .insert(batchItems)
          .values(
            items.map((it, i) => ({
              batchId: batch.id,
              position: i + 1,
              url: it.url,
              status: it.status,
              errorCode: it.errorCode ?? null,
              errorMessage: it.errorMessage ?? null,
            })),
          )
          .returning();
      });
    },
    async find(id: string): Promise<Batch | undefined> {
      const [row] = await db.select().from(batches).where(eq(batches.id, id));
      return row;
    },
    async items(batchId: string): Promise<BatchItemRow[]> {
      return db.select().from(batchItems).where(eq(batchItems.batchId, batchId)).orderBy(asc(batchItems.position));
    },
    async item(id: number): Promise<BatchItemRow | undefined> {
      const [row] = await db.select().from(batchItems).where(eq(batchItems.id, id));
      return row;
    },
    async listForUser(userId: string, limit = 20) {
      const rows = await db
        .select()
        .from(batches)
        .where(eq(batches.userId, userId))
        .orderBy(desc(batches.createdAt))
        .limit(limit);
      if (!rows.length) return [];
      const counts = await db
        .select({ batchId: batchItems.batchId, status: batchItems.status, n: count() })
        .from(batchItems)
        .where(
          inArray(
            batchItems.batchId,
            rows.map((r) => r.id),
          ),
        )
        .groupBy(batchItems.batchId, batchItems.status);
      return rows.map((b) => ({
        batch: b,
        counts: Object.fromEntries(
          counts.filter((c) => c.batchId === b.id).map((c) => [c.status, Number(c.n)]),
        ) as Record<string, number>,
      }));
    },
    /** queued -> running; false when another run already took or finished it. */
    async start(id: number): Promise<boolean> {
      const rows = await db
        .update(batchItems)
        .set({ status: 'running' })
        .where(and(eq(batchItems.id, id), inArray(batchItems.status, ['queued', 'running'])))
        .returning({ id: batchItems.id });
      return rows.length > 0;
    },
    async finish(id: number, result: { title: string; fileName: string; resultKey: string }) {
      await db
        .update(batchItems)
        .set({ status: 'done', ...result, errorCode: null, errorMessage: null, finishedAt: sql`now()` })
        .where(and(eq(batchItems.id, id), eq(batchItems.status, 'running')));
    },
    async fail(id: number, error: { code: string; message: string }, title?: string) {
      await db
        .update(batchItems)
        .set({
          status: 'failed',
          errorCode: error.code,
          errorMessage: error.message,
          title: title ?? null,
          finishedAt: sql`now()`,
        })
        .where(and(eq(batchItems.id, id), eq(batchItems.status, 'running')));
    },
    /** running -> queued: a transient failure, to be run again by the queue. */
    async requeue(id: number) {
      await db
        .update(batchItems)
        .set({ status: 'queued' })
        .where(and(eq(batchItems.id, id), eq(batchItems.status, 'running')));
    },
    /** Failed items that had a valid link go back to the queue; returns their ids. */
    async requeueFailed(batchId: string): Promise<number[]> {
      const rows = await db
        .update(batchItems)
        .set({ status: 'queued', errorCode: null, errorMessage: null, queuedAt: sql`now()`, finishedAt: null })
        .where(
          and(
            eq(batchItems.batchId, batchId),
            eq(batchItems.status, 'failed'),
            sql`${batchItems.errorCode} not in ('link.unsupported', 'batch.duplicate')`,
          ),
        )
        .returning({ id: batchItems.id });
      return rows.map((r) => r.id);
    },
    /** How many items of any batch wait before each of `ids` (their place in the queue). */
    async queuePositions(ids: number[]): Promise<Map<number, number>> {
      if (!ids.length) return new Map();
      const rows = await db.execute(sql`
        select id, (select count(*) from ${batchItems} o where o.status in ('queued', 'running')
          and (o.queued_at, o.id) < (i.queued_at, i.id)) + 1 as position
        from ${batchItems} i where i.id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`);
      const list = (Array.isArray(rows) ? rows : (rows as { rows: Array<Record<string, unknown>> }).rows) as Array<{
        id: number;
        position: string | number;
      }>;
      return new Map(list.map((r) => [Number(r.id), Number(r.position)]));
    },
    async expired(now: Date): Promise<string[]> {
      return (await db.select({ id: batches.id }).from(batches).where(lt(batches.expiresAt, now))).map((r) => r.id);
    },
    async delete(id: string) {
      await db.delete(batches).where(eq(batches.id, id));
    },
  };
}
export type BatchesRepository = ReturnType<typeof createBatchesRepository>;

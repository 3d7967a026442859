// Scheduled task runs (issue 21): claiming a run is one statement, so of all the nodes (and
// restarts) asking within one interval exactly one gets it.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { scheduleRuns } from '../schema.js';

export function createScheduleRunsRepository(db: Db) {
  return {
    /** True when this caller may run `name` now: it never ran, or its last start is an interval old. */
    async claim(name: string, intervalMs: number): Promise<boolean> {
      const rows = await db
        .insert(scheduleRuns)
        .values({ name, startedAt: sql`now()`, runs: 1 })
        .onConflictDoUpdate({
          target: scheduleRuns.name,
          set: { startedAt: sql`now()`, finishedAt: null, error: null, runs: sql`${scheduleRuns.runs} + 1` },
          // A little under the interval: a run due now is not skipped because the last one started late.
          where: sql`${scheduleRuns.startedAt} <= now() - make_interval(secs => ${(intervalMs * 0.95) / 1000})`,
        })
        .returning({ name: scheduleRuns.name });
      return rows.length > 0;
    },
    async finish(name: string, error: string | null): Promise<void> {
      await db
        .update(scheduleRuns)
        .set({ finishedAt: sql`now()`, error: error?.slice(0, 2000) ?? null })
        .where(eq(scheduleRuns.name, name));
    },
    async find(name: string) {
      const [row] = await db.select().from(scheduleRuns).where(eq(scheduleRuns.name, name));
      return row;
    },
  };
}
export type ScheduleRunsRepository = ReturnType<typeof createScheduleRunsRepository>;

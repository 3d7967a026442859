// The few questions pg-boss 12 has no public call for, asked of its table `pgboss.job` directly
// (decision 0096 gives the reason for each): the open job of a singleton key (findJobs reads every
// job of the key, ended ones included, oldest first), the open jobs of an owner (counts), a job's
// place in line, and three conditional updates of one job (a requester joining, its progress,
// "cancel unless kept"), each one statement so that a concurrent change cannot be lost. Fetching,
// completing, failing and cancelling go through pg-boss's API (job-queue.ts).
// test/integration/pgboss-tables.test.ts fails when an upgrade changes the columns, the order of
// states or the fetch order these statements rely on.
type Sql = <T>(text: string, values: unknown[]) => Promise<T[]>;

/** The columns of pgboss.job read or written here, and the state order `state < 'completed'` relies on. */
export const PGBOSS_JOB_COLUMNS = [
  'id',
  'name',
  'state',
  'priority',
  'data',
  'singleton_key',
  'created_on',
  'completed_on',
] as const;
export const PGBOSS_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;

export function pgBossTables(sql: Sql) {
  return {
    /** The open (waiting or running) job of a singleton key, if any. */
    async openJob(name: string, singletonKey: string): Promise<string | undefined> {
      const rows = await sql<{ id: string }>(
        `SELECT id FROM pgboss.job WHERE name = $1 AND singleton_key = $2 AND state < 'completed'
         ORDER BY created_on DESC LIMIT 1`,
        [name, singletonKey],
      );
      return rows[0]?.id;
    },
    /** Open jobs of the queue, and how many of them carry `data.owner = owner`. */
    async openCounts(name: string, owner: string): Promise<{ open: number; owners: number }> {
      const [row] = await sql<{ open: string; owners: string }>(
        `SELECT count(*) AS open, count(*) FILTER (WHERE data->>'owner' = $2) AS owners
         FROM pgboss.job WHERE name = $1 AND state < 'completed'`,
        [name, owner],
      );
      return { open: Number(row?.open ?? 0), owners: Number(row?.owners ?? 0) };
    },
    /** Place in the waiting line (1 = next) in pg-boss's fetch order (priority, then age); null once it runs. */
    async position(name: string, id: string): Promise<number | null> {
      const [row] = await sql<{ position: string | null }>(
        `SELECT CASE WHEN j.state < 'active' THEN 1 + (SELECT count(*) FROM pgboss.job w
           WHERE w.name = j.name AND w.state < 'active' AND (w.priority > j.priority
             OR (w.priority = j.priority AND (w.created_on, w.id) < (j.created_on, j.id)))) END AS position
         FROM pgboss.job j WHERE j.name = $1 AND j.id = $2`,
        [name, id],
      );
      return row?.position == null ? null : Number(row.position);
    },
    /**
     * Adds a requester to a job's `data.askers` (who may follow it) and, with `keep`, marks it
     * wanted by someone who is not connected (never cancelled when the last waiter leaves).
     */
    async join(name: string, id: string, opts: { asker?: string; keep?: boolean }) {
      if (!opts.asker && !opts.keep) return;
      await sql(
        `UPDATE pgboss.job SET data = coalesce(data, '{}'::jsonb)
           || CASE WHEN $3::boolean THEN '{"keep":true}'::jsonb ELSE '{}'::jsonb END
           || CASE WHEN $4::text = '' OR coalesce(data->'askers', '[]'::jsonb) ? $4::text THEN '{}'::jsonb
              ELSE jsonb_build_object('askers', coalesce(data->'askers', '[]'::jsonb) || to_jsonb($4::text)) END
         WHERE name = $1 AND id = $2`,
        [name, id, !!opts.keep, opts.asker ?? ''],
      );
    },
    /** Where a running job stands (0..100), kept in its data so every node's status() reads it. */
    async setProgress(name: string, id: string, percent: number) {
      await sql(
        `UPDATE pgboss.job SET data = coalesce(data, '{}'::jsonb) || jsonb_build_object('progress', $3::numeric)
         WHERE name = $1 AND id = $2 AND state = 'active'`,
        [name, id, percent],
      );
    },
    /** Cancels an open job unless it is kept, in one statement (a keep arriving meanwhile wins). */
    async cancelUnlessKept(name: string, id: string): Promise<boolean> {
      const rows = await sql(
        `UPDATE pgboss.job SET state = 'cancelled', completed_on = now()
         WHERE name = $1 AND id = $2 AND state < 'completed' AND NOT coalesce((data->>'keep')::boolean, false)
         RETURNING 1`,
        [name, id],
      );
      return rows.length > 0;
    },
  };
}

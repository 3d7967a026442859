// A database that ran pg-boss 10 (schema version 24) cannot be migrated by pg-boss 12, whose
// oldest starting point is 25 (decision 0096). So, once, before pg-boss 12 starts, that schema is set
// aside as `pgboss_v10` (one statement under an advisory lock: nodes starting together set it aside
// once), pg-boss 12 creates its own, and each queue, when it is declared, gets the jobs that were
// still open there again, with their ids and settings (a batch left half done finishes). This file
// is the only reader of pgboss_v10; an operator may drop it once it holds no open job.
import type { JobInsert } from 'pg-boss';
import type { JobsConnection } from '../../db/client.js';

type Sql = <T>(text: string, values: unknown[]) => Promise<T[]>;

export const SET_ASIDE_SCHEMA = 'pgboss_v10';
/** The oldest schema version pg-boss 12 migrates from. */
const OLDEST_MIGRATED = 25;

export const SET_ASIDE_STATEMENT = `DO $$ BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('smt:pgboss-10-set-aside'));
  -- Nested: the inner statement is planned only when pgboss.version exists.
  IF to_regclass('pgboss.version') IS NOT NULL AND to_regnamespace('${SET_ASIDE_SCHEMA}') IS NULL THEN
    IF (SELECT max(version::int) FROM pgboss.version) < ${OLDEST_MIGRATED} THEN
      ALTER SCHEMA pgboss RENAME TO ${SET_ASIDE_SCHEMA};
    END IF;
  END IF;
END $$`;

/** Sets pg-boss 10's schema aside if the database has one; before pg-boss 12 starts. */
export async function setAsideOldSchema(connection: JobsConnection) {
  if (!('connectionString' in connection)) {
    await connection.executeSql(SET_ASIDE_STATEMENT);
    return;
  }
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: connection.connectionString });
  await client.connect();
  try {
    await client.query(SET_ASIDE_STATEMENT);
  } finally {
    await client.end();
  }
}

interface OldJob {
  id: string;
  data: Record<string, unknown> | null;
  priority: number;
  singleton_key: string | null;
  retry_limit: number;
  retry_delay: number;
  retry_backoff: boolean;
  start_after: Date | string;
  expire_seconds: string | number;
}

/**
 * Takes the open jobs of queue `name` out of the set-aside schema (one statement: a node taking
 * them concurrently gets none) and hands them to `insert` as pg-boss 12 jobs.
 */
export async function carryOver(sql: Sql, name: string, insert: (jobs: JobInsert[]) => Promise<unknown>) {
  const [{ there }] = await sql<{ there: boolean }>(
    `SELECT to_regclass('${SET_ASIDE_SCHEMA}.job') IS NOT NULL AS there`,
    [],
  );
  if (!there) return 0;
  const old = await sql<OldJob>(
    `DELETE FROM ${SET_ASIDE_SCHEMA}.job WHERE name = $1 AND state < 'completed'
     RETURNING id, data, priority, singleton_key, retry_limit, retry_delay, retry_backoff, start_after,
       EXTRACT(epoch FROM expire_in) AS expire_seconds`,
    [name],
  );
  if (!old.length) return 0;
  await insert(
    old.map((j) => ({
      id: j.id,
      data: j.data ?? {},
      priority: j.priority,
      ...(j.singleton_key ? { singletonKey: j.singleton_key } : {}),
      ...(typeof j.data?.owner === 'string' && j.data.owner ? { group: { id: j.data.owner } } : {}),
      retryLimit: j.retry_limit,
      retryDelay: j.retry_delay,
      retryBackoff: j.retry_backoff,
      startAfter: new Date(j.start_after),
      expireInSeconds: Math.max(1, Math.round(Number(j.expire_seconds))),
    })),
  );
  return old.length;
}

// Opens the database: PGlite in DATA_DIR by default, PostgreSQL (pooled) when DATABASE_URL is set.
// Both get the same Drizzle schema and the same committed migrations.
import path from 'node:path';
import fs from 'node:fs';
import { closeToOthers } from '../lib/private-data-dir.js';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DbKind = 'pglite' | 'postgres';

/** What the job queue (adapters/jobs) needs to reach the same database: a URL, or raw SQL on PGlite. */
export type JobsConnection =
  | { connectionString: string }
  | { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };

export interface Database {
  db: Db;
  kind: DbKind;
  jobs: JobsConnection;
  /** Round trip used by the health check. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function migrationsFolder(): string {
  // Works from src/ (tsx) and from dist/ (bundled): walk up to the folder holding migrations/.
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'migrations');
    if (fs.existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('migrations folder not found');
}

export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  return openPglite(path.join(opts.dataDir, 'pglite'));
}

export async function openPostgres(url: string): Promise<Database> {
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client dropped by the server (restart, failover) must not crash the process; the
  // next query opens a new connection.
  pool.on('error', () => {});
  const db = drizzle(pool, { schema }) as unknown as Db;
  await migrate(db as never, { migrationsFolder: migrationsFolder() });
  return {
    db,
    kind: 'postgres',
    jobs: { connectionString: url },
    ping: async () => void (await pool.query('select 1')),
    close: () => pool.end(),
  };
}

/**
 * dir = a folder for a persisted database, or 'memory://' for a throwaway one (tests).
 * loadDataDir = a dump (PGlite's dumpDataDir) to start from instead of an empty cluster: tests reuse
 * a migrated one, which skips the costly first start of each new database.
 */
export async function openPglite(dir: string, opts: { loadDataDir?: Blob } = {}): Promise<Database> {
  const { PreparedPGlite } = await import('./pglite-prepared.js');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const onDisk = !dir.startsWith('memory://');
  if (onDisk) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const client = new PreparedPGlite(dir, opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {});
  await client.waitReady;
  // PGlite unpacks its initial cluster with 0666 modes whatever the umask: only we may read it.
  if (onDisk) closeToOthers(dir);
  const db = drizzle(client, { schema }) as unknown as Db;
  await migrate(db as never, { migrationsFolder: migrationsFolder() });
  client.preparing = true;
  return {
    db,
    kind: 'pglite',
    // Several statements in one text (pg-boss's schema, its transactions) go through exec, whole.
    jobs: {
      executeSql: async (text: string, values?: unknown[]) =>
        values?.length
          ? { rows: (await client.query(text, values)).rows }
          : { rows: (await client.exec(text)).at(-1)?.rows ?? [] },
    },
    ping: async () => void (await client.query('select 1')),
    close: () => client.close(),
  };
}

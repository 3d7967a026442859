// Opens the database: PGlite in DATA_DIR by default, PostgreSQL (pooled) when DATABASE_URL is set.
// Both get the same Drizzle schema and the same committed migrations.
import path from 'node:path';
import fs from 'node:fs';
import { closeToOthers } from '../lib/private-data-dir.js';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import * as schema from './schema.js';
import { earlyPgliteWasm } from './pglite-wasm.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DbKind = 'pglite' | 'postgres';

/** What the job queue (adapters/jobs) needs to reach the same database: a URL, or raw SQL on PGlite. */
export type JobsConnection =
  | { connectionString: string }
  | { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };

/** Advisory lock keys (any fixed numbers no other code of ours takes) of work done by one node at a time. */
export const NODE_LOCKS = { start: 7_301_042_043, whisperModel: 7_301_046_046 } as const;
export type NodeLock = keyof typeof NODE_LOCKS;

export interface Database {
  db: Db;
  kind: DbKind;
  jobs: JobsConnection;
  /** Round trip used by the health check. */
  ping(): Promise<void>;
  /**
   * Runs start-up work (migrations, queue declarations) one node at a time among every node on this
   * database: several nodes started at once would each run it and collide (issue 43). PGlite has
   * one node only.
   */
  oneNodeAtATime<T>(work: () => Promise<T>, lock?: NodeLock): Promise<T>;
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

/**
 * Applies the migrations not applied yet. At most starts everything is applied: one query says so
 * (the newest applied migration is the journal's last) instead of the migrator's few statements and
 * its transaction (decision 0075).
 */
async function migrateIfBehind(db: Db, migrate: () => Promise<void>): Promise<void> {
  const folder = migrationsFolder();
  const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ when: number }>;
  };
  const last = journal.entries.at(-1)?.when;
  try {
    const { rows } = (await db.execute(
      sql`SELECT max(created_at) AS newest FROM drizzle.__drizzle_migrations`,
    )) as unknown as { rows: Array<{ newest: string | number | null }> };
    if (last !== undefined && Number(rows[0]?.newest ?? 0) >= last) return;
  } catch {
    // No migrations table yet: a new database.
  }
  await migrate();
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
  // A session lock on a connection of its own, held while the work runs on the others; a node that
  // dies holding it lets it go with its connection.
  const oneNodeAtATime = async <T>(work: () => Promise<T>, lock: NodeLock = 'start'): Promise<T> => {
    const holder = await pool.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [NODE_LOCKS[lock]]);
      try {
        return await work();
      } finally {
        await holder.query('SELECT pg_advisory_unlock($1)', [NODE_LOCKS[lock]]);
      }
    } finally {
      holder.release();
    }
  };
  await oneNodeAtATime(() => migrateIfBehind(db, () => migrate(db as never, { migrationsFolder: migrationsFolder() })));
  return {
    db,
    kind: 'postgres',
    jobs: { connectionString: url },
    oneNodeAtATime,
    ping: async () => void (await pool.query('select 1')),
    close: () => pool.end(),
  };
}

/**
 * A new database folder starts as a copy of the migrated cluster made beside the build
 * (scripts/pglite-seed.mjs) when there is one for this PGlite version: PGlite's own initdb costs
 * seconds of CPU (decision 0075). Without one (running from the sources), PGlite makes the cluster.
 */
function copySeed(dir: string): void {
  const root = path.dirname(migrationsFolder());
  const seed = path.join(root, 'dist', 'pglite-seed');
  try {
    const made = JSON.parse(fs.readFileSync(path.join(seed, 'seed.json'), 'utf8')) as { pglite?: string };
    const pkg = path.join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json');
    if (made.pglite !== (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { version: string }).version) return;
    fs.cpSync(path.join(seed, 'cluster'), dir, { recursive: true });
  } catch {
    // No seed, or it was being replaced: start from nothing, as PGlite would.
    for (const name of fs.readdirSync(dir)) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  }
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
  const created = onDisk && !opts.loadDataDir && fs.readdirSync(dir).length === 0;
  if (created) copySeed(dir);
  // Compiled ahead by the built entry while the modules loaded (boot.ts, decision 0076).
  const pgliteWasmModule = await earlyPgliteWasm();
  const client = new PreparedPGlite(dir, {
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
    ...(pgliteWasmModule ? { pgliteWasmModule } : {}),
  });
  await client.waitReady;
  // PGlite unpacks its initial cluster (and the copy keeps the seed's) with 0666 modes whatever the
  // umask: only we may read it. An existing one was closed by makeDataDirPrivate at the start.
  if (created) closeToOthers(dir);
  const db = drizzle(client, { schema }) as unknown as Db;
  await migrateIfBehind(db, () => migrate(db as never, { migrationsFolder: migrationsFolder() }));
  client.preparing = true;
  // The queue's statements asked and not answered yet: the close waits for them (pg-boss sends a
  // finished job's complete() without awaiting it, just before its stop lets the database close).
  const asked = new Set<Promise<unknown>>();
  const jobStatement = async (text: string, values?: unknown[]) => {
    // PGlite answers without waiting on I/O, so pg-boss's chains of statements (its start, its
    // polls) would run as one long task: each statement lets waiting requests in first (0075).
    await new Promise((resolve) => setImmediate(resolve));
    return values?.length
      ? { rows: (await client.query(text, values)).rows }
      : { rows: (await client.exec(text)).flatMap((r) => r.rows) };
  };
  return {
    db,
    kind: 'pglite',
    // Several statements in one text (pg-boss's schema, its transactions) go through exec, whole,
    // answered with the rows of every statement, as the pg driver's results reach pg-boss 12.
    jobs: {
      executeSql: (text: string, values?: unknown[]) => {
        const answer = jobStatement(text, values);
        asked.add(answer);
        answer.then(
          () => asked.delete(answer),
          () => asked.delete(answer),
        );
        return answer;
      },
    },
    oneNodeAtATime: (work) => work(),
    ping: async () => void (await client.query('select 1')),
    close: async () => {
      await Promise.allSettled([...asked]);
      await client.close();
    },
  };
}

// Test databases: PGlite in memory, or a fresh PostgreSQL database per call (dropped on close).
import crypto from 'node:crypto';
import pg from 'pg';
import { openPglite, openPostgres, type Database, type DbKind } from '../../src/server/db/client.js';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Both kinds; every integration suite that touches SQL runs on each (`describe.each(DB_KINDS)`). */
export const DB_KINDS: DbKind[] = ['pglite', 'postgres'];

export async function openTestDatabase(kind: DbKind): Promise<Database> {
  if (kind === 'pglite') return openPglite('memory://');
  const fresh = await createPostgresDatabase();
  const database = await openPostgres(fresh.url);
  return {
    ...database,
    async close() {
      await database.close();
      await fresh.drop();
    },
  };
}

/** A fresh, empty PostgreSQL database for a child process (e.g. an end-to-end server). */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `smt_e2e_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

// Test databases: PGlite in memory, or a fresh PostgreSQL database per call (dropped on close).
// A new PGlite starts from a migrated template (made once per migration set, kept in the temp dir):
// an empty cluster costs seconds of CPU per database, a copy of one costs little.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { migrationsFolder, openPglite, openPostgres, type Database, type DbKind } from '../../src/server/db/client.js';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Both kinds; every integration suite that touches SQL runs on each (`describe.each(DB_KINDS)`). */
export const DB_KINDS: DbKind[] = ['pglite', 'postgres'];

export async function openTestDatabase(kind: DbKind): Promise<Database> {
  if (kind === 'pglite') return openPglite('memory://', { loadDataDir: await pgliteTemplateDump() });
  const fresh = await createPostgresDatabase({ migrated: true });
  const database = await openPostgres(fresh.url);
  return {
    ...database,
    async close() {
      await database.close();
      await fresh.drop();
    },
  };
}

/**
 * A folder holding a migrated PGlite cluster (`<folder>/pglite`, what DATA_DIR/pglite would hold) and
 * its dump (`<folder>/dump.tar`), for the current migrations and PGlite version. Built once; workers
 * racing to build it each build their own and the first rename wins.
 */
export async function pgliteTemplate(): Promise<string> {
  const dir = path.join(os.tmpdir(), `smt-pglite-template-${templateKey()}`);
  if (fs.existsSync(path.join(dir, 'dump.tar'))) return dir;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-pglite-build-'));
  const cluster = path.join(work, 'pglite');
  await (await openPglite(cluster)).close();
  const raw = await PGlite.create(cluster);
  const dump = await raw.dumpDataDir('none');
  await raw.close();
  fs.writeFileSync(path.join(work, 'dump.tar'), Buffer.from(await dump.arrayBuffer()));
  try {
    fs.renameSync(work, dir);
  } catch {
    fs.rmSync(work, { recursive: true, force: true }); // another worker was first: use its copy
  }
  return dir;
}

let dumpLoaded: Promise<Blob> | undefined;
async function pgliteTemplateDump(): Promise<Blob> {
  dumpLoaded ??= pgliteTemplate().then((dir) => new Blob([fs.readFileSync(path.join(dir, 'dump.tar'))]));
  return dumpLoaded;
}

/** Changes with any migration file or the PGlite version, so a stale template is never used. */
function templateKey(): string {
  const hash = crypto.createHash('sha256');
  const folder = migrationsFolder();
  for (const file of fs.readdirSync(folder, { recursive: true }).map(String).sort()) {
    const full = path.join(folder, file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  const pkg = path.join(path.dirname(folder), 'node_modules', '@electric-sql', 'pglite', 'package.json');
  hash.update(JSON.parse(fs.readFileSync(pkg, 'utf8')).version);
  return hash.digest('hex').slice(0, 16);
}

/**
 * A fresh PostgreSQL database for a child process (e.g. an end-to-end server): empty, or with
 * `migrated` a copy of a template that already holds the schema (its migrations then run as no-ops).
 */
export async function createPostgresDatabase(
  opts: { migrated?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `smt_e2e_${crypto.randomBytes(6).toString('hex')}`;
  const template = opts.migrated ? await postgresTemplate() : null;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
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

/** The name of a migrated PostgreSQL database to copy (one per migration set, built once, kept). */
let postgresTemplateName: Promise<string> | undefined;
function postgresTemplate(): Promise<string> {
  postgresTemplateName ??= (async () => {
    const name = `smt_template_${templateKey()}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      if ((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount) return name;
      const build = await createPostgresDatabase();
      await (await openPostgres(build.url)).close();
      const built = new URL(build.url).pathname.slice(1);
      // The pool's sessions end a moment after close(); a rename needs them gone.
      const busy = 'SELECT 1 FROM pg_stat_activity WHERE datname = $1';
      for (let i = 0; i < 100 && (await admin.query(busy, [built])).rowCount; i++)
        await new Promise((r) => setTimeout(r, 20));
      // Renamed only once whole, so nobody copies a half-migrated template; a worker that lost the race drops its own.
      await admin.query(`ALTER DATABASE ${built} RENAME TO ${name}`).catch(() => build.drop());
      return name;
    } finally {
      await admin.end();
    }
  })();
  return postgresTemplateName;
}

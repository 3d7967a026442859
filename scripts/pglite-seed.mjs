// An empty PGlite cluster with every migration applied, made beside the build (dist/pglite-seed/),
// once per PGlite version and migration set. A new DATA_DIR starts from a copy of it
// (src/server/db/client.ts) instead of running PGlite's initdb, seconds of CPU (decision 0075).
// Run by start.mjs and ensure-build.mjs after the build check; `node scripts/pglite-seed.mjs` alone too.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './build-lib.mjs';

export const seedDir = path.join(root, 'dist', 'pglite-seed');
const migrations = path.join(root, 'migrations');

function pgliteVersion() {
  const pkg = path.join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json');
  return JSON.parse(fs.readFileSync(pkg, 'utf8')).version;
}

/** What the seed was made from: a changed migration or PGlite version makes a new one. */
function seedKey() {
  const hash = crypto.createHash('sha256');
  for (const file of fs.readdirSync(migrations, { recursive: true }).map(String).sort()) {
    const full = path.join(migrations, file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  return { pglite: pgliteVersion(), migrations: hash.digest('hex').slice(0, 16) };
}

function current(key) {
  try {
    const made = JSON.parse(fs.readFileSync(path.join(seedDir, 'seed.json'), 'utf8'));
    return made.pglite === key.pglite && made.migrations === key.migrations;
  } catch {
    return false;
  }
}

export async function ensureSeed() {
  const key = seedKey();
  if (current(key)) return false;
  const started = Date.now();
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  fs.mkdirSync(path.dirname(seedDir), { recursive: true });
  const work = fs.mkdtempSync(`${seedDir}.tmp-`);
  const client = await PGlite.create(path.join(work, 'cluster'));
  await migrate(drizzle(client), { migrationsFolder: migrations });
  await client.close();
  fs.writeFileSync(path.join(work, 'seed.json'), JSON.stringify(key));
  // Another process may be making the same seed: the last rename wins, both are whole.
  const old = `${work}.old`;
  try {
    fs.renameSync(seedDir, old);
  } catch {
    /* none yet, or another process moved it */
  }
  try {
    fs.renameSync(work, seedDir);
  } catch (err) {
    if (!current(key)) throw err;
  }
  fs.rmSync(old, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
  console.log(`PGlite seed made in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) await ensureSeed();

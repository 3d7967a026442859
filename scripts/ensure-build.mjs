import { spawnSync } from 'node:child_process';
import { buildIsStale, root } from './build-lib.mjs';
import { ensureSeed } from './pglite-seed.mjs';

if (buildIsStale()) {
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
// A new DATA_DIR starts from this migrated cluster instead of PGlite's initdb (decision 0075).
if (!process.env.DATABASE_URL) await ensureSeed();

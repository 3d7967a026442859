import { spawnSync } from 'node:child_process';
import { buildIsStale, root } from './build-lib.mjs';

if (buildIsStale()) {
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// `npm start`: builds first when the build is missing or stale, then runs the server.
// An explicitly given NODE_ENV is kept; otherwise the server runs with development defaults.
import { spawn, spawnSync } from 'node:child_process';
import { buildIsStale, root } from './build-lib.mjs';

if (buildIsStale()) {
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const child = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.js'], { cwd: root, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

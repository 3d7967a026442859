// `npm start`: builds first when the build is missing or stale (and makes the PGlite seed, once per
// migration set), then runs the server.
// An explicitly given NODE_ENV is kept; otherwise the server runs with development defaults.
// Stopping: npm forwards SIGINT/SIGTERM to this process (package.json `exec`s it, so no shell sits
// in between to swallow them); they go on to the server, and this process exits with the server's
// code. Should this process be orphaned anyway (its parent killed outright), the server is stopped
// too instead of being left running. See docs/decisions/0902-npm-start-signals.md.
import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import { buildIsStale, root } from './build-lib.mjs';
import { ensureSeed } from './pglite-seed.mjs';

if (buildIsStale()) {
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
// A new DATA_DIR starts from this migrated cluster instead of PGlite's initdb (decision 0075).
if (!process.env.DATABASE_URL) await ensureSeed();
const child = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.js'], { cwd: root, stdio: 'inherit' });
const stop = (sig) => {
  if (child.exitCode === null && child.signalCode === null) child.kill(sig);
};
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => stop(sig === 'SIGHUP' ? 'SIGTERM' : sig));

const parent = process.ppid;
const orphanWatch = setInterval(() => {
  if (process.ppid !== parent) stop('SIGTERM');
}, 1000);
orphanWatch.unref();

child.on('exit', (code, signal) => {
  // A server ended by a signal exits the shell way: 128 + the signal's number.
  process.exit(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 0));
});

// `npm ci` / `npm install`, after the dependencies (decision 0095). On Node 22.13 or later: builds
// whisper.cpp for this CPU (build-whisper.mjs). On an older Node (the one running npm): fetches the
// product's runtime (runtime.mjs) and has npm, run by that runtime, install what npm on the older
// Node left out (the `optionalDependencies` whose `engines` exclude it) and run this script again,
// now on the runtime, with its headers for native builds (`npm_config_nodedir`).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fetchRuntime, root, runsProduct, runtimeDir } from './runtime.mjs';

if (runsProduct(process.version)) {
  // A runtime fetched while npm ran on an older Node is no longer needed (scripts/runtime.sh would pick it).
  if (process.env.npm_config_nodedir !== runtimeDir) fs.rmSync(runtimeDir, { recursive: true, force: true });
  await import('./build-whisper.mjs');
} else {
  const npmCli = process.env.npm_execpath;
  if (!npmCli) throw new Error('run through npm (npm ci): npm_execpath is not set');
  const node = fetchRuntime(npmCli);
  console.log(`Node ${process.version} is older than the product's: its runtime is ${node}`);
  // The outer npm's own settings (npm_config_*, npm_lifecycle_*) are not passed on: the inner npm reads its own.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
  const r = spawnSync(node, [npmCli, 'install', '--no-save', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...env,
      PATH: `${path.join(runtimeDir, 'bin')}${path.delimiter}${process.env.PATH}`,
      npm_config_nodedir: runtimeDir,
    },
  });
  process.exit(r.status ?? 1);
}

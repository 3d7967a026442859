// Shared by build.mjs, start.mjs and ensure-build.mjs: is the build missing or older than its sources?
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const stampFile = path.join(root, 'dist', '.build-stamp');
const SOURCES = [
  'src',
  'migrations',
  'vite.config.ts',
  'package-lock.json',
  'scripts/build.mjs',
  'scripts/precompress.mjs',
];

function newestMtime(p) {
  let stat;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

export function buildIsStale() {
  let stamp;
  try {
    stamp = fs.statSync(stampFile).mtimeMs;
  } catch {
    return true;
  }
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > stamp);
}

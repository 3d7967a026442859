// DATA_DIR holds the PGlite database (password hashes, sessions), the session secret and media:
// only this account may read it. The umask makes every file the process creates 0600 / 0700
// (PGlite's WASM file system asks for 0666), and a tree left open by an older version is closed.
import fs from 'node:fs';
import path from 'node:path';

export function makeDataDirPrivate(dir: string): void {
  process.umask(0o077);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  closeToOthers(dir);
}

/** Removes group and other permissions from a tree (symbolic links are left alone). */
export function closeToOthers(p: string): void {
  const st = fs.lstatSync(p);
  if (st.isSymbolicLink()) return;
  if ((st.mode & 0o077) !== 0) fs.chmodSync(p, st.mode & 0o700);
  if (st.isDirectory()) for (const name of fs.readdirSync(p)) closeToOthers(path.join(p, name));
}

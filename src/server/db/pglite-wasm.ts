// PGlite's WebAssembly compiled ahead: the built entry (boot.ts) starts the compile before the
// server's modules load, so V8 compiles on its background threads while the main thread loads
// modules, and openPglite hands the compiled module to PGlite instead of PGlite compiling it then
// (decision 0076). The two sides are separate bundles: they meet on a global key.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const KEY = Symbol.for('social-media-toolkit.pglite-wasm');
type Holder = { [KEY]?: Promise<WebAssembly.Module> };

/** Starts compiling PGlite's WebAssembly (once); openPglite takes the result. */
export function compilePgliteWasmEarly(): void {
  const holder = globalThis as Holder;
  if (holder[KEY]) return;
  try {
    const file = fileURLToPath(new URL('pglite.wasm', import.meta.resolve('@electric-sql/pglite')));
    const compiled = WebAssembly.compile(fs.readFileSync(file));
    compiled.catch(() => undefined); // PGlite compiles it itself then
    holder[KEY] = compiled;
  } catch {
    // Not where expected: PGlite finds and compiles its own.
  }
}

/** The module compiled ahead, or undefined (from the sources, tests): PGlite compiles its own. */
export async function earlyPgliteWasm(): Promise<WebAssembly.Module | undefined> {
  const compiled = (globalThis as Holder)[KEY];
  return compiled?.catch(() => undefined);
}

// PGlite's WebAssembly compiled ahead (src/server/db/pglite-wasm.ts, decision 0076): the built entry
// starts the compile before the server's modules load; openPglite takes what it compiled. Without
// it (from the sources, tests) PGlite compiles its own, as before.
import { describe, expect, it } from 'vitest';
import { compilePgliteWasmEarly, earlyPgliteWasm } from '../../src/server/db/pglite-wasm.js';
import { openPglite } from '../../src/server/db/client.js';

describe('PGlite compiled ahead', () => {
  // Two PGlite starts, each compiling or starting PostgreSQL in WebAssembly: slow on a busy machine.
  it('is nothing until the compile is started, then a module a database opens with', { timeout: 120_000 }, async () => {
    expect(await earlyPgliteWasm()).toBeUndefined();
    const plain = await openPglite('memory://');
    await plain.ping();
    await plain.close();

    compilePgliteWasmEarly();
    const compiled = await earlyPgliteWasm();
    expect(compiled).toBeInstanceOf(WebAssembly.Module);
    // PostgreSQL's own entry points are in it: the file PGlite itself would have compiled.
    expect(WebAssembly.Module.exports(compiled as WebAssembly.Module).map((e) => e.name)).toContain('pgl_startPGlite');
    compilePgliteWasmEarly(); // a second call starts no second compile
    expect(await earlyPgliteWasm()).toBe(compiled);

    const database = await openPglite('memory://');
    await database.ping();
    await database.close();
  });
});

// The built server's entry (dist/server/main.js, scripts/build.mjs). On PGlite it starts compiling
// the database's WebAssembly first, then loads the server (main.ts, built to dist/server/server.js):
// V8 compiles on its background threads while this thread loads the modules, instead of one after
// the other (decision 0076). From the sources (`npm run dev`) main.ts runs directly.
import { compilePgliteWasmEarly } from './db/pglite-wasm.js';

if (!process.env.DATABASE_URL) compilePgliteWasmEarly();
// A URL, not a path esbuild would bundle: the server is its own file beside this one.
await import(new URL('./server.js', import.meta.url).href);

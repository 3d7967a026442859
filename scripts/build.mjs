// Builds the server (esbuild, dependencies left external) and the client (Vite).
import fs from 'node:fs';
import path from 'node:path';
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';
import { root, stampFile } from './build-lib.mjs';
import { writeIcons } from './make-icons.mjs';
import { precompress } from './precompress.mjs';

/** Leaves every package import external except those of `names` (and their subpaths). */
function bundleOnly(names) {
  return {
    name: 'bundle-only',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        const name = args.path.startsWith('@') ? args.path.split('/', 2).join('/') : args.path.split('/')[0];
        return names.includes(name) ? undefined : { path: args.path, external: true };
      });
    },
  };
}

const started = Date.now();
// dist/ is not emptied: a server started from an earlier build keeps finding its hashed assets.
await esbuild({
  entryPoints: {
    // main.js starts PGlite's WebAssembly compile, then loads server.js (src/server/boot.ts, 0076).
    main: path.join(root, 'src/server/boot.ts'),
    server: path.join(root, 'src/server/main.ts'),
    cli: path.join(root, 'src/server/cli.ts'),
    // The text worker thread's entry (src/server/text-work/pool.ts loads it beside main.js).
    'text-worker': path.join(root, 'src/server/text-work/worker.ts'),
  },
  outdir: path.join(root, 'dist/server'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // Dependencies stay in node_modules, except a few pure-JS ones made of hundreds of small ES
  // modules: Node's loader reads and links each file on every start, so they are bundled into
  // server.js (zod with its one user, fastify-type-provider-zod; decision 0077).
  plugins: [bundleOnly(['drizzle-orm', 'zod', 'fastify-type-provider-zod'])],
  sourcemap: true,
  logLevel: 'warning',
});
await viteBuild({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
// The first screens' server render (decision 0074): loaded by src/server/plugins/first-screens.ts.
await viteBuild({
  configFile: path.join(root, 'vite.config.ts'),
  logLevel: 'warn',
  build: {
    ssr: path.join(root, 'src/client/entry-server.tsx'),
    outDir: path.join(root, 'dist/ssr'),
    manifest: false,
    copyPublicDir: false,
    emptyOutDir: false, // as dist/client: a running server may still load its lazy chunks
  },
});
// Which chunk holds which screen (for the first screens' modulepreload links), out of what is served.
fs.renameSync(path.join(root, 'dist/client/.vite/manifest.json'), path.join(root, 'dist/ssr/client-manifest.json'));
writeIcons(path.join(root, 'dist/client')); // referenced by src/client/public/manifest.webmanifest
precompress(path.join(root, 'dist/client')); // .br and .gz beside each file, sent as they are (app.ts)
fs.writeFileSync(stampFile, new Date().toISOString());
console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s`);

// Builds the server (esbuild, dependencies left external) and the client (Vite).
import fs from 'node:fs';
import path from 'node:path';
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';
import { root, stampFile } from './build-lib.mjs';
import { writeIcons } from './make-icons.mjs';
import { precompress } from './precompress.mjs';

const started = Date.now();
// dist/ is not emptied: a server started from an earlier build keeps finding its hashed assets.
await esbuild({
  entryPoints: [path.join(root, 'src/server/main.ts'), path.join(root, 'src/server/cli.ts')],
  outdir: path.join(root, 'dist/server'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
await viteBuild({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
writeIcons(path.join(root, 'dist/client')); // referenced by src/client/public/manifest.webmanifest
precompress(path.join(root, 'dist/client')); // .br and .gz beside each file, sent as they are (app.ts)
fs.writeFileSync(stampFile, new Date().toISOString());
console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s`);

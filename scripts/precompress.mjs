// Writes a brotli (.br) and a gzip (.gz) copy beside every compressible file of the built client, so
// the server sends them as they are (@fastify/static `preCompressed`) instead of compressing per request.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|json|webmanifest|svg|txt|map)$/;
// Below this the headers outweigh the saving.
const MIN_BYTES = 512;

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(p);
    else if (COMPRESSIBLE.test(entry.name)) yield p;
  }
}

/** Compresses what changed since its copies were written; returns the number of files written. */
export function precompress(dir) {
  let written = 0;
  for (const file of files(dir)) {
    const stat = fs.statSync(file);
    if (stat.size < MIN_BYTES) continue;
    const br = `${file}.br`;
    const gz = `${file}.gz`;
    const fresh = (copy) => fs.existsSync(copy) && fs.statSync(copy).mtimeMs >= stat.mtimeMs;
    if (fresh(br) && fresh(gz)) continue;
    const body = fs.readFileSync(file);
    fs.writeFileSync(
      br,
      zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    );
    fs.writeFileSync(gz, zlib.gzipSync(body, { level: zlib.constants.Z_BEST_COMPRESSION }));
    written += 2;
  }
  return written;
}

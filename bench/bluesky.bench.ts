// A Bluesky download (issue 37): the uploaded original fetched by the product from the author's
// PDS (getBlob) and relayed through /api/video/download, as a ratio of the same blob fetched
// directly from the same stand-in PDS paced at 100 MB/s (goal >= 0.95). Medians of ROUNDS, the
// two orders alternating; the post is looked up (its PDS resolved) before the clock starts, as a
// person's card is fetched before they press Download.
// Run: `node scripts/build.mjs && npx tsx bench/bluesky.bench.ts` (ROUNDS, BLOB_MB).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { startProServer } from './pro-server.js';
import { PDS_HOST, startFakeBluesky } from '../test/fakes/bluesky/fake-bluesky.js';
import { toneMp4 } from '../test/fakes/media-samples.js';

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const BLOB_MB = Number(process.env.BLOB_MB ?? 100);
const MB = 1024 * 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bluesky-bench-'));
// A real faststart H.264+AAC head (the product reads it for a sound track), then padding.
const blob = path.join(tmp, 'blob.mp4');
fs.copyFileSync(toneMp4(3, { faststart: true }), blob);
fs.appendFileSync(blob, Buffer.alloc(Math.max(0, BLOB_MB * MB - fs.statSync(blob).size), 7));
const size = fs.statSync(blob).size;

const bs = await startFakeBluesky();
bs.state.blobBytesPerSecond = 100 * MB;
const { server, headers } = await startProServer({ UPSTREAM_HOST_MAP: bs.hostMapJson });
const drain = async (body: AsyncIterable<Uint8Array>) => {
  let n = 0;
  for await (const chunk of body) n += chunk.length;
  return n;
};

try {
  const rounds: Array<[number, number]> = [];
  for (let i = 0; i < ROUNDS; i++) {
    const post = bs.addVideoPost({ file: blob });
    await fetch(`${server.url}/api/video/info`, { method: 'POST', headers, body: JSON.stringify({ url: post.url }) });
    const direct = async () => {
      const t0 = performance.now();
      const query = new URLSearchParams({ did: post.author.did, cid: post.cid });
      const res = await request(`${bs.origin}/xrpc/com.atproto.sync.getBlob?${query}`, { headers: { host: PDS_HOST } });
      if ((await drain(res.body)) !== size) throw new Error('direct: short');
      return performance.now() - t0;
    };
    const product = async () => {
      const t0 = performance.now();
      // undici's request on both sides, so the two clients cost the bench process the same.
      const res = await request(`${server.url}/api/video/download`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: post.url, quality: 'hd' }),
      });
      if (res.statusCode !== 200 || (await drain(res.body)) !== size) throw new Error(`product: ${res.statusCode}`);
      return performance.now() - t0;
    };
    if (i % 2 === 0) {
      const d = await direct();
      rounds.push([d, await product()]);
    } else {
      const p = await product();
      rounds.push([await direct(), p]);
    }
  }
  const ratios = rounds.map(([d, p]) => d / p);
  console.log(
    `Bluesky blob ${(size / MB).toFixed(0)} MiB, stand-in PDS paced at 100 MB/s, ${ROUNDS} rounds: ` +
      `direct ${median(rounds.map((r) => r[0])).toFixed(0)} ms (baseline), via /api/video/download ` +
      `${median(rounds.map((r) => r[1])).toFixed(0)} ms; throughput ratio ${median(ratios).toFixed(2)}x ` +
      `(min ${Math.min(...ratios).toFixed(2)}, max ${Math.max(...ratios).toFixed(2)}; goal >= 0.95)`,
  );
} finally {
  await server.stop();
  await bs.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}

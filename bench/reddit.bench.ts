// Joined files (issue 44): a Reddit video's best height and a TikTok 1080p HEVC gear, each joined
// with its sound through the product (both parts fetched from the fake CDN at a stand-in 20 MB/s,
// remuxed as they arrive, sent as they are made), against the same two files fetched by hand from
// a paced server at the same rate and joined with a bare `ffmpeg -c copy` (the baseline). Goals:
// whole file <= 1.0x, first byte <= 0.5x, on short clips (5-10 MB) as well as longer files.
// Rounds are interleaved (product, then by hand). Run: `node scripts/build.mjs && npm run bench -- reddit`
// (ROUNDS, RATE_MBPS).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { startProServer } from './pro-server.js';
import { startFakeReddit } from '../test/fakes/reddit/fake-reddit.js';
import { dashSet } from '../test/fakes/reddit/dash-media.js';
import { startFakeTikTok } from '../test/fakes/tiktok/fake-tiktok.js';
import { aacSound, FFMPEG, hevcVideoOnly } from '../test/fakes/media-samples.js';
import { remuxArgs } from '../src/server/adapters/media/remux.js';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const RATE = Number(process.env.RATE_MBPS ?? 20) * 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'reddit-bench-'));

/** The stand-in CDN of the baseline: any local file by its path, paced like the fakes. */
const files = http.createServer((req, res) => {
  const file = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  res.writeHead(200, { 'content-length': fs.statSync(file).size });
  const start = Date.now();
  let sent = 0;
  const pace = new Transform({
    transform(chunk: Buffer, _e, cb) {
      sent += chunk.length;
      setTimeout(() => cb(null, chunk), Math.max(0, (sent / RATE) * 1000 - (Date.now() - start)));
    },
  });
  pipeline(fs.createReadStream(file, { highWaterMark: 64 * 1024 }), pace, res).catch(() => undefined);
});
await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
const filesUrl = `http://127.0.0.1:${(files.address() as { port: number }).port}`;

/** By hand: both files fetched at once, then joined by stream copy. */
async function byHand(video: string, sound: string, codec: 'h264' | 'hevc', i: number): Promise<number> {
  const t0 = performance.now();
  await Promise.all(
    [video, sound].map(async (f, n) => {
      const res = await fetch(filesUrl + encodeURIComponent(f).replaceAll('%2F', '/'));
      fs.writeFileSync(path.join(tmp, `part-${n}`), Buffer.from(await res.arrayBuffer()));
    }),
  );
  execFileSync(
    FFMPEG,
    remuxArgs(path.join(tmp, 'part-0'), path.join(tmp, 'part-1'), path.join(tmp, `h${i}.mp4`), codec),
  );
  return performance.now() - t0;
}

/** Through the product: first byte and whole file of the download. */
async function product(url: string, quality: string, server: { url: string }, headers: Record<string, string>) {
  await fetch(`${server.url}/api/video/info`, { method: 'POST', headers, body: JSON.stringify({ url }) });
  const t0 = performance.now();
  const res = await fetch(`${server.url}/api/video/download`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url, quality }),
  });
  if (res.status !== 200) throw new Error(`download answered ${res.status}: ${await res.text()}`);
  const reader = res.body!.getReader();
  await reader.read();
  const first = performance.now() - t0;
  while (!(await reader.read()).done);
  return [first, performance.now() - t0];
}

const rd = await startFakeReddit({ bytesPerSecond: RATE });
const tt = await startFakeTikTok();
const { server, headers } = await startProServer({
  UPSTREAM_HOST_MAP: JSON.stringify({ ...rd.hostMap, ...tt.hostMap }),
  VIDEO_INFO_PER_MINUTE: '1000',
});
const cases = [
  { name: 'Reddit 1080p, short clip', set: dashSet({ heights: [1080, 720], seconds: 5, naming: 'CMAF' as const }) },
  { name: 'Reddit 1080p, longer file', set: dashSet({ heights: [1080, 720], seconds: 30, naming: 'DASH' as const }) },
];
const tiktok = { gear: hevcVideoOnly(1080, 1920, 24), sound: aacSound(24, 660, { dash: true }) };
try {
  let n = 0;
  const report = (name: string, video: string, sound: string, runs: number[][], hand: number[]) => {
    const [first, whole, base] = [median(runs.map((r) => r[0])), median(runs.map((r) => r[1])), median(hand)];
    const mb = (f: string) => (fs.statSync(f).size / 1e6).toFixed(1);
    console.log(
      `${name} (${mb(video)} MB video + ${mb(sound)} MB sound at ${RATE / 1e6} MB/s), ${ROUNDS} rounds, medians:`,
    );
    console.log(`  by hand (fetch both, ffmpeg -c copy): ${base.toFixed(0)} ms`);
    console.log(
      `  product: first byte ${first.toFixed(0)} ms (${(first / base).toFixed(2)}x), whole file ${whole.toFixed(0)} ms (${(whole / base).toFixed(2)}x)`,
    );
  };
  for (const c of cases) {
    const runs: number[][] = [];
    const hand: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const url = rd.addVideo(`b${n++}x`, 'bench', c.set);
      runs.push(await product(url, `${c.set.videos[0].height}p`, server, headers));
      hand.push(await byHand(c.set.videos[0].file, c.set.audio!.file, 'h264', i));
    }
    report(c.name, c.set.videos[0].file, c.set.audio!.file, runs, hand);
  }
  const runs: number[][] = [];
  const hand: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const v = tt.addVideo({
      hevc: { gears: { '1080p': tiktok.gear, '720p': null }, sounds: [tiktok.sound] },
      bytesPerSecond: RATE,
    });
    runs.push(await product(v.url, '1080p', server, headers));
    hand.push(await byHand(tiktok.gear, tiktok.sound, 'hevc', i));
  }
  report('TikTok 1080p HEVC, short clip', tiktok.gear, tiktok.sound, runs, hand);
} finally {
  await server.stop();
  await Promise.all([rd.close(), tt.close()]);
  files.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}

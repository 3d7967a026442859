// 1080p remux (issue 20): time to first byte and total time of a 1080p download through the product
// (gear and sound fetched from the fake CDN and remuxed as they arrive, the fragmented MP4 sent as
// it is made: issue 38) as a ratio of a bare
// `ffmpeg -c copy` of the same two local files (goal <= 1.2x), and the server's CPU per remux.
// Run: `node scripts/build.mjs && npx tsx bench/remux.bench.ts` (ROUNDS, SECONDS).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startProServer } from './pro-server.js';
import { startFakeTikTok } from '../test/fakes/tiktok/fake-tiktok.js';
import { aacSound, FFMPEG, hevcVideoOnly } from '../test/fakes/media-samples.js';
import { remuxArgs } from '../src/server/adapters/media/remux.js';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SECONDS = Number(process.env.SECONDS_OF_VIDEO ?? 30);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const gear = hevcVideoOnly(1080, 1920, SECONDS);
const sound = aacSound(SECONDS);
const tt = await startFakeTikTok();
const { server, headers, cpuMs } = await startProServer({ UPSTREAM_HOST_MAP: tt.hostMapJson });
try {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'remux-bench-'));
  const product: number[][] = [];
  const bare: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const v = tt.addVideo({ hevc: { gears: { '1080p': gear, '720p': null }, sounds: [sound] } });
    await fetch(`${server.url}/api/video/info`, { method: 'POST', headers, body: JSON.stringify({ url: v.url }) });
    const c0 = cpuMs();
    const t0 = performance.now();
    const res = await fetch(`${server.url}/api/video/download`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: v.url, quality: '1080p' }),
    });
    const reader = res.body!.getReader();
    await reader.read();
    const ttfb = performance.now() - t0;
    while (!(await reader.read()).done);
    product.push([ttfb, performance.now() - t0]);
    cpu.push(cpuMs() - c0);
    const b0 = performance.now();
    execFileSync(FFMPEG, remuxArgs(gear, sound, path.join(tmp, `bare-${i}.mp4`)));
    bare.push(performance.now() - b0);
  }
  const [ttfb, total, base] = [median(product.map((p) => p[0])), median(product.map((p) => p[1])), median(bare)];
  console.log(
    `1080p HEVC ${SECONDS} s (${(fs.statSync(gear).size / 1e6).toFixed(1)} MB video + ` +
      `${(fs.statSync(sound).size / 1e6).toFixed(2)} MB sound), ${ROUNDS} rounds, medians:`,
  );
  console.log(`  bare ffmpeg -c copy of the local files: ${base.toFixed(0)} ms`);
  console.log(
    `  product: first byte ${ttfb.toFixed(0)} ms (${(ttfb / base).toFixed(2)}x), whole file ` +
      `${total.toFixed(0)} ms (${(total / base).toFixed(2)}x)`,
  );
  console.log(`  server CPU per remuxed download (process + ffmpeg): ${median(cpu)} ms`);
  fs.rmSync(tmp, { recursive: true, force: true });
} finally {
  await server.stop();
  await tt.close();
}

// Photo-post slideshow (issue 20): render time of 10 slides over 30 s of sound through the product
// (fetch slides and sound from the fake CDN, render in the media pool, send from the store) as a
// ratio of the same ffmpeg command run bare on the same local files, and the server's CPU per render.
// Run: `node scripts/build.mjs && npx tsx bench/slideshow.bench.ts` (ROUNDS, SLIDES, SECONDS).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startProServer } from './pro-server.js';
import { startFakeTikTok } from '../test/fakes/tiktok/fake-tiktok.js';
import { solidJpeg, toneMp3 } from '../test/fakes/tiktok/photo.js';
import { FFMPEG, FFPROBE } from '../test/fakes/media-samples.js';
import { slideshowArgs } from '../src/server/adapters/media/slideshow.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SLIDES = Number(process.env.SLIDES ?? 10);
const SECONDS = Number(process.env.SECONDS ?? 30);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const colours = ['e6194b', '3cb44b', 'ffe119', '4363d8', 'f58231', '911eb4', '46f0f0', 'f032e6', 'bcf60c', 'fabebe'];
const slides = Array.from({ length: SLIDES }, (_, i) => solidJpeg(colours[i % colours.length], 1080, 1440));
const sound = toneMp3(SECONDS);
const soundSeconds = Number(
  execFileSync(FFPROBE, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', sound], {
    encoding: 'utf8',
  }),
);
const tt = await startFakeTikTok();
const { server, headers, cpuMs } = await startProServer({ UPSTREAM_HOST_MAP: tt.hostMapJson });
try {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'slideshow-bench-'));
  const product: number[] = [];
  const bare: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const p = tt.addPhotoPost({ slides, sound });
    await fetch(`${server.url}/api/video/info`, { method: 'POST', headers, body: JSON.stringify({ url: p.url }) });
    const c0 = cpuMs();
    const t0 = performance.now();
    const res = await fetch(`${server.url}/api/video/download`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: p.url, quality: 'slideshow' }),
    });
    if (res.status !== 200) throw new Error(`slideshow: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    product.push(performance.now() - t0);
    cpu.push(cpuMs() - c0);
    const b0 = performance.now();
    execFileSync(
      FFMPEG,
      slideshowArgs(
        { slides, sound, seconds: soundSeconds, width: 1080, height: 1440 },
        path.join(tmp, `bare-${i}.mp4`),
      ),
    );
    bare.push(performance.now() - b0);
  }
  const [total, base] = [median(product), median(bare)];
  console.log(`slideshow of ${SLIDES} slides (1080x1440 JPEG) over ${SECONDS} s of MP3, ${ROUNDS} rounds, medians:`);
  console.log(`  bare ffmpeg, same command on the local files: ${base.toFixed(0)} ms`);
  console.log(`  product, whole file: ${total.toFixed(0)} ms (${(total / base).toFixed(2)}x)`);
  console.log(`  server CPU per slideshow (process + ffmpeg): ${median(cpu)} ms`);
  fs.rmSync(tmp, { recursive: true, force: true });
} finally {
  await server.stop();
  await tt.close();
}

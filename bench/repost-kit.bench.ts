// Repost kit (issue 47): time until a kit for all four targets is ready (POST /api/repost-kits
// answered done: texts made, the video fetched once, kept as is where taken or remuxed, four covers,
// the ZIP and every file stored) as a ratio of downloading the same video alone through the product
// (POST /api/video/download, read to the last byte), from the fake CDN at a set rate. Rounds are
// interleaved (download, kit, download, kit...) on fresh video ids, no burn-in. Goal: <= 1.3x.
// Run: `node scripts/build.mjs && npm run bench -- repost-kit` (ROUNDS, SECONDS, RATE_MB).
import { startProServer } from './pro-server.js';
import { startFakeTikTok } from '../test/fakes/tiktok/fake-tiktok.js';
import { FFMPEG } from '../test/fakes/media-samples.js';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SECONDS = Number(process.env.SECONDS ?? 30);
/** The CDN's rate per transfer, in MB/s: a phone-grade link, so the download is the cost it is in use. */
const RATE_MB = Number(process.env.RATE_MB ?? 4);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * A clip at a phone video's bitrate (noise keeps x264 from shrinking the test pattern to nothing):
 * 720x1280 H.264 at about 3 Mbit/s with AAC, index at the end as many exports are, so Reels needs the
 * one remux and the other targets take the file as it is.
 */
function phoneClip(seconds: number): string {
  const file = path.join(os.tmpdir(), `repost-bench-${seconds}s.mp4`);
  if (fs.existsSync(file)) return file;
  execFileSync(FFMPEG, [
    ...[
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=720x1280:rate=30:duration=${seconds}`,
    ],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-vf', 'noise=alls=20:allf=t'],
    ...[
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-b:v',
      '3M',
      '-maxrate',
      '3M',
      '-bufsize',
      '6M',
      '-pix_fmt',
      'yuv420p',
    ],
    ...['-c:a', 'aac', '-b:a', '128k', '-shortest', `${file}.part.mp4`],
  ]);
  fs.renameSync(`${file}.part.mp4`, file);
  return file;
}
const source = phoneClip(SECONDS);
const bytes = fs.statSync(source).size;
const tt = await startFakeTikTok();
const { server, headers, cpuMs } = await startProServer({ UPSTREAM_HOST_MAP: tt.hostMapJson });
const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
const video = () =>
  tt.addVideo({
    desc: 'Fresh pasta in five minutes, no machine needed. Flour, eggs, a rolling pin. #pasta #cooking',
    media: { file: source },
    duration: SECONDS,
    bytesPerSecond: RATE_MB * 1_000_000,
  });
try {
  const download: number[] = [];
  const kit: number[] = [];
  const kitCpu: number[] = [];
  // One warm-up of each (text threads, first ffmpeg runs), not counted.
  for (let i = -1; i < ROUNDS; i++) {
    const a = video();
    await post('/api/video/info', { url: a.url });
    const d0 = performance.now();
    const res = await post('/api/video/download', { url: a.url, quality: 'hd' });
    if (res.status !== 200) throw new Error(`download: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    const d = performance.now() - d0;

    const b = video();
    await post('/api/video/info', { url: b.url });
    const c0 = cpuMs();
    const k0 = performance.now();
    const made = await post('/api/repost-kits', {
      url: b.url,
      targets: ['reels', 'shorts', 'tiktok', 'bluesky'],
      coverAt: 2,
    });
    if (made.status !== 200) throw new Error(`kit: ${made.status} ${await made.text()}`);
    const view = (await made.json()) as { state: string };
    if (view.state !== 'done') throw new Error(`kit: ${JSON.stringify(view)}`);
    const k = performance.now() - k0;
    if (i >= 0) {
      download.push(d);
      kit.push(k);
      kitCpu.push(cpuMs() - c0);
    }
  }
  const [base, total] = [median(download), median(kit)];
  console.log(
    `repost kit for 4 targets of a ${SECONDS} s 720x1280 H.264 MP4 at ~3 Mbit/s (${(bytes / 1e6).toFixed(1)} MB, index at the end), ` +
      `CDN at ${RATE_MB} MB/s, ${ROUNDS} interleaved rounds, medians:`,
  );
  console.log(`  the video alone (POST /api/video/download, whole body): ${base.toFixed(0)} ms`);
  console.log(
    `  the kit ready (POST /api/repost-kits answered done): ${total.toFixed(0)} ms (${(total / base).toFixed(2)}x)`,
  );
  console.log(
    `  every round, download / kit: ${download.map((d, i) => `${d.toFixed(0)}/${kit[i].toFixed(0)}`).join(', ')}`,
  );
  console.log(`  server CPU per kit (process + ffmpeg): ${median(kitCpu)} ms`);
  console.log(
    `  load average at the end (1/5/15 min, ${os.cpus().length} cores): ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}`,
  );
} finally {
  await server.stop();
  await tt.close();
}

// Caption studio preview speed (issue 29): a 1080x1920 H.264 video (60 fps by default) playing in
// this machine's Chromium with JASSUB drawing karaoke captions over it (a new caption state every
// 0.25 s), shown at the studio's size. Frames counted with requestVideoFrameCallback; the baseline is the same
// video with no captions, in the same browser. Goal: >= 30 fps.
// Run: `npx tsx bench/caption-preview.bench.ts` (SECONDS, ROUNDS, RATE; SCREENSHOT=file.png saves the captioned page).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { buildAss, DEFAULT_CAPTION_STYLE } from '../src/shared/caption-ass.js';
import { FFMPEG } from '../test/fakes/media-samples.js';

const SECONDS = Number(process.env.SECONDS ?? 6);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
/** 60 fps by default, so a preview slower than 30 fps has room to show it (a 30 fps clip caps the count at 30). */
const RATE = Number(process.env.RATE ?? 60);
const root = path.resolve(import.meta.dirname, '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'preview-bench-'));
const jassubDir = path.join(root, 'node_modules/jassub/dist');
const FONT = '/usr/share/fonts/opentype/inter/Inter-Bold.otf';

// A 12 s 1080x1920 clip at RATE fps, and karaoke captions with a word every 0.25 s.
const clip = path.join(tmp, 'clip.mp4');
execFileSync(FFMPEG, [
  ...[
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=1080x1920:rate=${RATE}:duration=12`,
  ],
  ...['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', clip],
]);
const words = Array.from({ length: 48 }, (_, i) => ({ text: `word${i}`, start: i * 0.25, end: i * 0.25 + 0.25 }));
const lines = Array.from({ length: 12 }, (_, i) => ({ id: `l${i}`, words: words.slice(i * 4, i * 4 + 4) }));
const ass = buildAss({ width: 1080, height: 1920, lines, style: { ...DEFAULT_CAPTION_STYLE, preset: 'karaoke' } });

await build({
  entryPoints: {
    page: path.join(import.meta.dirname, 'caption-preview/page.ts'),
    worker: path.join(jassubDir, 'worker/worker.js'),
  },
  outdir: tmp,
  bundle: true,
  format: 'esm',
  logLevel: 'error',
});
const files: Record<string, [string, string]> = {
  '/': ['', 'text/html'],
  '/page.js': [path.join(tmp, 'page.js'), 'text/javascript'],
  '/worker.js': [path.join(tmp, 'worker.js'), 'text/javascript'],
  '/jassub-worker.wasm': [path.join(jassubDir, 'wasm/jassub-worker.wasm'), 'application/wasm'],
  '/jassub-worker-modern.wasm': [path.join(jassubDir, 'wasm/jassub-worker-modern.wasm'), 'application/wasm'],
  '/clip.mp4': [clip, 'video/mp4'],
  '/font.otf': [FONT, 'font/otf'],
};
const html = `<!doctype html><body style="margin:0;background:#000">
<div style="position:relative;width:540px;height:960px"><video src="/clip.mp4" muted playsinline
style="position:absolute;inset:0;width:100%;height:100%"></video>
<canvas style="position:absolute;inset:0;width:100%;height:100%;pointer-events:none"></canvas></div>
<script type="module" src="/page.js"></script></body>`;
const server = http.createServer((req, res) => {
  const f = files[req.url ?? ''];
  if (!f) return void res.writeHead(404).end();
  const body = f[0] ? fs.readFileSync(f[0]) : Buffer.from(html);
  const range = /bytes=(\d+)-(\d*)/.exec(req.headers.range ?? '');
  if (range) {
    const start = Number(range[1]);
    const end = range[2] ? Number(range[2]) : body.length - 1;
    res.writeHead(206, {
      'Content-Type': f[1],
      'Content-Range': `bytes ${start}-${end}/${body.length}`,
      'Accept-Ranges': 'bytes',
    });
    return void res.end(body.subarray(start, end + 1));
  }
  res.writeHead(200, { 'Content-Type': f[1], 'Accept-Ranges': 'bytes' }).end(body);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--autoplay-policy=no-user-gesture-required'],
});
type Count = { frames: number; seconds: number; dropped: number };
const fps = (c: Count) => c.frames / c.seconds;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  const run = async (withCaptions: boolean) => {
    const page = await browser.newPage({ viewport: { width: 600, height: 1000 } });
    await page.goto(url);
    await page.waitForFunction(() => typeof window.countFrames === 'function');
    if (withCaptions) await page.evaluate(([a, f]) => window.startJassub(a, f), [ass, '/font.otf']);
    const c: Count = await page.evaluate((s) => window.countFrames(s), SECONDS);
    if (withCaptions && process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT });
    await page.close();
    return c;
  };
  const bare: Count[] = [];
  const captioned: Count[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    bare.push(await run(false));
    captioned.push(await run(true));
  }
  const b = median(bare.map(fps));
  const c = median(captioned.map(fps));
  console.log(`1080x1920 H.264 ${RATE} fps, shown at 540x960, ${SECONDS} s of playback x ${ROUNDS} rounds, medians:`);
  console.log(`  video alone:            ${b.toFixed(1)} fps (dropped ${median(bare.map((x) => x.dropped))})`);
  console.log(
    `  with JASSUB captions:   ${c.toFixed(1)} fps (dropped ${median(captioned.map((x) => x.dropped))}),`,
    `${(c / b).toFixed(2)}x the video alone`,
  );
  console.log(`  goal >= 30 fps with captions: ${c >= 30 ? 'met' : 'NOT met'}`);
} finally {
  await browser.close();
  server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}

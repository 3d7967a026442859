// Foundation benchmarks (run: `npm run bench -- foundation`):
// 1. time from `npm start` (scripts/start.mjs, build and PGlite seed up to date, as after the first
//    start of a build) to a healthy /api/health, on an empty DATA_DIR (the PGlite cluster copied
//    from the seed, decision 0075) and on a warm one, as a ratio of a bare Node HTTP server started
//    the same way in the same process tree; goals (issue 38): warm <= 1.5 s, empty <= 5 s;
// 2. gzip size of the JavaScript the signed-out landing page loads, counted in Chromium.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { freePort, launchBrowser } from '../test/helpers/e2e.js';

// BENCH_ROOT=<dir>: another built checkout (e.g. main) is started and measured instead of this one.
const ROOT = process.env.BENCH_ROOT ? path.resolve(process.env.BENCH_ROOT) : path.resolve(import.meta.dirname, '..');

async function timeToHealthy(args: string[], env: Record<string, string>, url: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, WHISPER_AUTO_FETCH: 'off', ...env },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      try {
        if ((await fetch(url)).ok) return performance.now() - started;
      } catch {
        /* not yet */
      }
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function startup() {
  // The seed is made once per migration set, with the build: not part of a start being measured.
  const { ensureSeed } = await import('../scripts/pglite-seed.mjs');
  await ensureSeed();
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  const bare: number[] = [];
  const fresh: number[] = [];
  const warm: number[] = [];
  const warmDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-bench-'));
  for (let i = 0; i < runs; i++) {
    let port = await freePort();
    bare.push(
      await timeToHealthy(
        ['-e', `require('http').createServer((q,s)=>s.end('ok')).listen(${port},'127.0.0.1')`],
        {},
        `http://127.0.0.1:${port}/`,
      ),
    );
    port = await freePort();
    const freshDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-bench-'));
    const env = { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
    fresh.push(
      await timeToHealthy(['scripts/start.mjs'], { ...env, DATA_DIR: freshDir }, `http://127.0.0.1:${port}/api/health`),
    );
    fs.rmSync(freshDir, { recursive: true, force: true });
    port = await freePort();
    warm.push(
      await timeToHealthy(
        ['scripts/start.mjs'],
        { ...env, PORT: String(port), DATA_DIR: warmDir },
        `http://127.0.0.1:${port}/api/health`,
      ),
    );
  }
  fs.rmSync(warmDir, { recursive: true, force: true });
  const b = median(bare);
  const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  console.log(`startup: bare node server ${b.toFixed(0)} ms (baseline; runs ${list(bare)})`);
  for (const [name, xs, goal] of [
    ['empty DATA_DIR', fresh, 5000],
    ['warm DATA_DIR ', warm, 1500],
  ] as const) {
    const m = median(xs);
    console.log(
      `startup: npm start to healthy, ${name} ${m.toFixed(0)} ms = ${(m / b).toFixed(1)}x baseline, ` +
        `${(m / goal).toFixed(2)} of the ${goal / 1000} s goal (median of ${xs.length}; runs ${list(xs)})`,
    );
  }
}

async function landingBundle() {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-bench-'));
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      WHISPER_AUTO_FETCH: 'off', // no model download beside what is measured
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const browser = await launchBrowser();
  const page = await browser.newPage();
  const scripts = new Map<string, number>();
  page.on('response', async (res) => {
    if (res.request().resourceType() === 'script') {
      const body = await res.body();
      scripts.set(res.url(), zlib.gzipSync(body, { level: 9 }).length);
    }
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.getByRole('link', { name: 'Start Creating Now' }).waitFor();
  await browser.close();
  child.kill('SIGTERM');
  const total = [...scripts.values()].reduce((a, b) => a + b, 0);
  for (const [u, n] of scripts) console.log(`landing: ${new URL(u).pathname} ${(n / 1024).toFixed(1)} KB gzip`);
  console.log(
    `landing: total JavaScript ${(total / 1024).toFixed(1)} KB gzip (goal <= 100 KB) = ${(total / 102400).toFixed(2)} of the goal`,
  );
  fs.rmSync(dataDir, { recursive: true, force: true });
}

await startup();
await landingBundle();
process.exit(0);

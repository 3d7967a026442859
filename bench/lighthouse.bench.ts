// Lighthouse, mobile (its default: Moto G Power emulation, simulated slow 4G and 4x CPU slowdown), on
// the landing page, the signed-in downloader and the sign-in page of the built server, in Debian's
// Chromium (headless, no network needed). Run: `npm run build && npx tsx bench/lighthouse.bench.ts`.
// Baseline in the same run: a bare Node server's one-line HTML page, the best score this machine
// and Chromium give; each page's score is printed beside it. Bytes are as actually sent
// (compressed), from Lighthouse's own network records; the goal is ≤ 70 KB of JavaScript for the
// landing page and ≥ 95 in every category.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { CHROMIUM, freePort, startServer } from '../test/helpers/e2e.js';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);

interface Measured {
  scores: Record<(typeof CATEGORIES)[number], number>;
  jsBytes: number;
  cssBytes: number;
  totalBytes: number;
  uncompressedBytes: number;
  lcpMs: number;
  tbtMs: number;
  /** The longest main-thread tasks Lighthouse saw (ms, at its 4x slowdown) and what ran them. */
  longTasks: string[];
  failing: string[];
}

async function startChromium(): Promise<{ port: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-chromium-'));
  const child: ChildProcess = spawn(
    CHROMIUM,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('Chromium did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      // Chromium's helpers may still be writing the profile as it exits (ENOTEMPTY even after retries):
      // a temporary folder left behind is not worth failing a finished run over.
      try {
        fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
      } catch (err) {
        console.warn(`left ${profile}: ${(err as Error).message}`);
      }
    },
  };
}

type Item = { transferSize?: number; resourceSize?: number; resourceType?: string };
type LongTask = { url?: string; duration?: number; startTime?: number };

async function measure(port: number, url: string, headers: Record<string, string> = {}): Promise<Measured> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    extraHeaders: headers,
  });
  if (!result) throw new Error(`no Lighthouse result for ${url}`);
  const { lhr } = result;
  const items = ((lhr.audits['network-requests']?.details as { items?: Item[] } | undefined)?.items ?? []) as Item[];
  const sum = (type: string | null, key: 'transferSize' | 'resourceSize') =>
    items.filter((i) => type === null || i.resourceType === type).reduce((n, i) => n + (i[key] ?? 0), 0);
  const failing: string[] = [];
  for (const id of CATEGORIES) {
    const category = lhr.categories[id];
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit.score !== null && audit.score < 0.9) {
        failing.push(`${id}: ${ref.id} (${audit.displayValue ?? audit.score})`);
      }
    }
  }
  return {
    scores: Object.fromEntries(
      CATEGORIES.map((c) => [c, Math.round((lhr.categories[c].score ?? 0) * 100)]),
    ) as Measured['scores'],
    jsBytes: sum('Script', 'transferSize'),
    cssBytes: sum('Stylesheet', 'transferSize'),
    totalBytes: sum(null, 'transferSize'),
    uncompressedBytes: sum(null, 'resourceSize'),
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? 0,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? 0,
    longTasks: (((lhr.audits['long-tasks']?.details as { items?: LongTask[] } | undefined)?.items ?? []) as LongTask[])
      .slice(0, 4)
      .map(
        (t) => `${Math.round(t.duration ?? 0)} ms at ${Math.round(t.startTime ?? 0)} (${path.basename(t.url ?? '?')})`,
      ),
    failing,
  };
}

/** The median run by performance score (the other categories barely move between runs). */
async function medianOf(port: number, url: string, headers?: Record<string, string>): Promise<Measured> {
  const runs: Measured[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await measure(port, url, headers));
  runs.sort((a, b) => a.scores.performance - b.scores.performance);
  return runs[Math.floor(runs.length / 2)];
}

async function bareServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const page =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="description" content="Baseline page"><title>Baseline</title></head>' +
    '<body><h1>Baseline</h1><p>One line of text.</p></body></html>';
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(() => r())) };
}

async function signUp(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: `lighthouse-${Date.now()}@example.com`, password: 'correct horse battery staple' }),
  });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

const chromium = await startChromium();
const bare = await bareServer();
const server = await startServer({ LOG_LEVEL: 'warn' });
try {
  const baseline = await medianOf(chromium.port, bare.url);
  const cookie = await signUp(server.url);
  const pages: Array<[string, string, Record<string, string>?]> = [
    ['landing (/ signed out)', `${server.url}/`],
    ['downloader (/ signed in)', `${server.url}/`, { cookie }],
    ['sign-in (/sign-in)', `${server.url}/sign-in`],
  ];
  const line = (name: string, m: Measured) =>
    `${name.padEnd(26)} ${CATEGORIES.map((c) => String(m.scores[c]).padStart(3)).join('  ')}   ` +
    `JS ${kb(m.jsBytes)}, CSS ${kb(m.cssBytes)}, all ${kb(m.totalBytes)} sent (${kb(m.uncompressedBytes)} uncompressed, ` +
    `${(m.totalBytes / Math.max(1, m.uncompressedBytes)).toFixed(2)}x)`;
  console.log(`Lighthouse ${RUNS} runs each, median by performance; columns: ${CATEGORIES.join(', ')}`);
  // Lighthouse multiplies the main-thread time it sees by 4: a busy machine shows as slow pages.
  console.log(
    `load average at start: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  console.log(line('baseline (bare page)', baseline));
  for (const [name, url, headers] of pages) {
    const m = await medianOf(chromium.port, url, headers);
    console.log(line(name, m));
    console.log(
      `${''.padEnd(26)} performance ${(m.scores.performance / Math.max(1, baseline.scores.performance)).toFixed(2)}x baseline, ` +
        `LCP ${(m.lcpMs / 1000).toFixed(2)} s, TBT ${Math.round(m.tbtMs)} ms`,
    );
    console.log(`${''.padEnd(26)} long tasks: ${m.longTasks.join('; ') || 'none'}`);
    for (const f of m.failing) console.log(`${''.padEnd(26)} below 0.9: ${f}`);
  }
  console.log(
    `load average at end: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await server.stop();
  await bare.close();
  await chromium.stop();
}

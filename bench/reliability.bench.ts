// Reliability under traffic (issue 18), against the built server as a child process and the fake
// TikTok CDN paced like a real one (10 MB/s per transfer):
//   load: `node scripts/build.mjs && npx tsx bench/reliability.bench.ts load` (LOAD_SECONDS, CLIENTS)
//         200 concurrent clients for 60 s mixing cached info lookups, downloads and page loads
//         (asked as a browser asks, not decompressed here: decision 0079); p50/p99 latency per
//         kind, page bytes as sent, errors (goal 0), server RSS before/after.
//   soak: `SOAK_MINUTES=30 npx tsx bench/reliability.bench.ts soak`
//         steady mixed traffic at a modest rate (20 clients, 250 ms apart, audio extractions too);
//         RSS and open file descriptors at start and end (goal: flat), temp files left (goal 0).
// Load comes from one address, so the per-address connection ceiling is off (CONNECTIONS_PER_IP=0).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { startServer } from '../test/helpers/e2e.js';
import { startFakeTikTok } from '../test/fakes/tiktok/fake-tiktok.js';
import { toneMp4 } from '../test/fakes/media-samples.js';

const mode = process.argv[2] === 'soak' ? 'soak' : 'load';
const CLIENTS = Number(process.env.CLIENTS ?? (mode === 'load' ? 200 : 20));
const SECONDS = mode === 'load' ? Number(process.env.LOAD_SECONDS ?? 60) : Number(process.env.SOAK_MINUTES ?? 30) * 60;
const PAUSE_MS = mode === 'load' ? 0 : 250;
const ACCOUNTS = 10;
const pct = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] : NaN;

const tt = await startFakeTikTok();
const server = await startServer({
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  UPSTREAM_HOST_MAP: tt.hostMapJson,
  VIDEO_INFO_PER_MINUTE: '10000000',
  CONNECTIONS_PER_IP: '0',
  LOG_LEVEL: 'error',
});
const pid = serverPid();
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const openFds = () => fs.readdirSync(`/proc/${pid}/fd`).length;
const tempFiles = () => {
  const dir = path.join(server.dataDir, 'tmp');
  return fs.existsSync(dir)
    ? fs.readdirSync(dir, { recursive: true }).filter((f) => fs.statSync(path.join(dir, String(f))).isFile()).length
    : 0;
};

function serverPid(): number {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (
        fs.readFileSync(`/proc/${entry}/environ`, 'utf8').includes(`DATA_DIR=${server.dataDir}`) &&
        fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('dist/server/main.js')
      )
        return Number(entry);
    } catch {
      /* not ours */
    }
  }
  throw new Error('server process not found');
}

try {
  // Pro accounts (no quota in the way), each with its session cookie.
  const cookies: string[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const email = `load${Date.now()}_${i}@example.com`;
    const reg = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email, password: 'correct horse battery' }),
    });
    if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
    cookies.push(
      reg.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; '),
    );
    if ((await server.cli(['user:grant-pro', email])).code !== 0) throw new Error('grant-pro failed');
  }
  const videos = Array.from({ length: 5 }, () =>
    tt.addVideo({ media: { size: 2 * 1024 * 1024 }, bytesPerSecond: 10 * 1024 * 1024 }),
  );
  const soundtrack = toneMp4(15);
  const headersFor = (i: number) => ({
    'content-type': 'application/json',
    origin: server.url,
    cookie: cookies[i % ACCOUNTS],
  });
  for (const v of videos)
    await fetch(`${server.url}/api/video/info`, {
      method: 'POST',
      headers: headersFor(0),
      body: JSON.stringify({ url: v.url }),
    });
  const indexHtml = await (await fetch(`${server.url}/`)).text();
  const asset = /src="(\/assets\/[^"]+\.js)"/.exec(indexHtml)?.[1] ?? '/';

  // Page loads ask as a browser does (compressed answers welcome) but, like a browser on its own
  // machine, leave decompressing out of this process: fetch would inflate every answer here, on the
  // server's two cores, and time that instead of the server (decision 0079).
  const agent = new http.Agent({ keepAlive: true });
  const rawGet = (urlPath: string) =>
    new Promise<{ status: number; bytes: number }>((resolve, reject) => {
      const req = http.get(
        `${server.url}${urlPath}`,
        { agent, headers: { 'accept-encoding': 'gzip, deflate, br' } },
        (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () =>
            bytes > 0 ? resolve({ status: res.statusCode ?? 0, bytes }) : reject(new Error('empty')),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
    });
  let pageBytes = 0;
  const latency = new Map<string, number[]>();
  const errors = new Map<string, number>();
  const note = (kind: string, ms: number, ok: boolean, detail = '') => {
    if (ok) latency.set(kind, [...(latency.get(kind) ?? []), ms]);
    else errors.set(`${kind} ${detail}`, (errors.get(`${kind} ${detail}`) ?? 0) + 1);
  };
  async function timed(kind: string, run: () => Promise<Response>, check: (r: Response) => Promise<boolean>) {
    const t0 = performance.now();
    try {
      const res = await run();
      const ok = res.ok && (await check(res));
      note(kind, performance.now() - t0, ok, String(res.status));
    } catch (err) {
      note(kind, performance.now() - t0, false, (err as Error).message.slice(0, 60));
    }
  }

  const rssStart = rssMb();
  const fdsStart = openFds();
  const deadline = Date.now() + SECONDS * 1000;
  // One sample a minute (soak): a leak shows as a trend after the first minutes' warm-up.
  const samples: string[] = [];
  const sampler = setInterval(() => samples.push(`${rssMb().toFixed(0)}/${openFds()}`), 60_000);
  let extractions = 0;
  const client = async (i: number) => {
    const headers = headersFor(i);
    for (let n = 0; Date.now() < deadline; n++) {
      const v = videos[(i + n) % videos.length];
      const roll = (i * 7 + n * 13) % 20;
      if (roll < 12)
        await timed(
          'info (cached)',
          () =>
            fetch(`${server.url}/api/video/info`, { method: 'POST', headers, body: JSON.stringify({ url: v.url }) }),
          async (r) => (await r.json()).videoId === v.id,
        );
      else if (roll < 17)
        await timed(
          'page load',
          async () => {
            const page = await rawGet('/');
            const script = await rawGet(asset);
            pageBytes += page.bytes + script.bytes;
            return new Response(null, { status: Math.max(page.status, script.status) });
          },
          async () => true,
        );
      else
        await timed(
          'download (10 MB/s CDN)',
          () =>
            fetch(`${server.url}/api/video/download`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ url: v.url, quality: 'hd' }),
            }),
          async (r) => (await r.arrayBuffer()).byteLength === v.size,
        );
      if (mode === 'soak' && i === 0 && n % 100 === 0) {
        // A fresh video each time: a real extraction job with temp files, not a stored result.
        const a = tt.addVideo({ media: { file: soundtrack }, duration: 15 });
        extractions++;
        await timed(
          'audio extract',
          () =>
            fetch(`${server.url}/api/audio/extract`, { method: 'POST', headers, body: JSON.stringify({ url: a.url }) }),
          async (r) => !!(await r.json()).audioUrl,
        );
      }
      if (PAUSE_MS) await new Promise((r) => setTimeout(r, PAUSE_MS));
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
  clearInterval(sampler);
  await new Promise((r) => setTimeout(r, 2000)); // let sockets and jobs settle

  console.log(
    `${mode}: ${CLIENTS} clients for ${SECONDS} s on ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`,
  );
  console.log('| kind | requests | p50 ms | p99 ms |');
  console.log('|---|---|---|---|');
  for (const [kind, xs] of latency)
    console.log(`| ${kind} | ${xs.length} | ${pct(xs, 50).toFixed(1)} | ${pct(xs, 99).toFixed(1)} |`);
  const pages = latency.get('page load')?.length ?? 0;
  if (pages) console.log(`page load bytes received (as sent, compressed or not): ${Math.round(pageBytes / pages)}`);
  const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
  console.log(`errors: ${errorCount}${errorCount ? ` ${JSON.stringify(Object.fromEntries(errors))}` : ''}`);
  console.log(`server RSS: ${rssStart.toFixed(0)} MB at start, ${rssMb().toFixed(0)} MB at end`);
  console.log(`open file descriptors: ${fdsStart} at start, ${openFds()} at end`);
  if (mode === 'soak') {
    console.log(`RSS MB / open fds, one sample a minute: ${samples.join(' ')}`);
    console.log(`audio extractions: ${extractions}; temp files left: ${tempFiles()}`);
  }
} finally {
  await server.stop();
  await tt.close();
}

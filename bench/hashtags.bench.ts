// Hashtag generator and content optimiser speed: `npx tsx bench/hashtags.bench.ts [calls]`.
// Built-in engine per call after warm-up (p50, p99, calls per second on one core, this process is
// single-threaded), against a baseline measured in this same process: wink-nlp reading the same
// title (the floor any keyword extraction pays). Then the whole request path through Fastify
// (session lookup, zod validation, engine, serialisation) on in-memory PGlite, against GET
// /api/health (one database round trip) in the same app.
import { createWinkAdapter } from '../src/server/adapters/nlp/wink.adapter.js';
import { HASHTAG_LEXICON } from '../src/server/lexicon/hashtags/index.js';
import { createBuiltinHashtagEngine } from '../src/server/services/hashtag-engine.builtin.js';
import { createBuiltinContentEngine } from '../src/server/services/content-engine.builtin.js';
import type { ObservedSnapshot } from '../src/server/db/repositories/hashtag-observations.repository.js';
import { createTestApp } from '../test/helpers/test-app.js';

const N = Number(process.argv[2] ?? 20_000);
const TITLES = [
  'Easy 15 minute garlic butter pasta recipe for busy weeknights',
  '20 min full body HIIT workout at home, no equipment',
  'I finally beat the Elden Ring final boss with no hits',
  'My everyday glowy makeup routine for oily skin',
  '3 days in Lisbon on a budget: itinerary and hidden gems',
  'How I paid off my credit card debt in 18 months',
  'Receta fácil de paella valenciana',
  'Unboxing the new iPhone camera: first impressions',
];
const CAPTION =
  'Stop scrolling if you love pasta. I tried the viral baked feta pasta and it changed my weeknight dinners. ' +
  'It takes 25 minutes, one dish and six ingredients you already have. Would you try it? Tell me below! #feta #pasta';

type Timed = number[] & { cpu?: number[] };

function pct(times: number[], q: number) {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function stats(times: Timed) {
  const total = times.reduce((a, b) => a + b, 0);
  const cpuTotal = times.cpu ? times.cpu.reduce((a, b) => a + b, 0) : total;
  return {
    p50: pct(times, 0.5),
    p99: pct(times, 0.99),
    // CPU time of this process per call: what the call costs when it is not waiting for a core.
    cpuP50: times.cpu ? pct(times.cpu, 0.5) : NaN,
    cpuP99: times.cpu ? pct(times.cpu, 0.99) : NaN,
    perSecond: (times.length / total) * 1000,
    perCpuSecond: (times.length / cpuTotal) * 1000,
  };
}

/** Wall-clock and CPU time of each call (process.cpuUsage has microsecond resolution). */
function time(n: number, fn: (i: number) => unknown): Timed {
  const out: Timed = new Array<number>(n);
  const cpu = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    fn(i);
    out[i] = performance.now() - t;
    const d = process.cpuUsage(c);
    cpu[i] = (d.user + d.system) / 1000;
  }
  out.cpu = cpu;
  return out;
}

async function timeAsync(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out[i] = performance.now() - t;
  }
  return out;
}

const fmt = (ms: number) => `${ms.toFixed(3)} ms`;
const n0 = (v: number) => (Number.isNaN(v) ? '–' : fmt(v));
const row = (what: string, s: ReturnType<typeof stats>, base?: ReturnType<typeof stats>) =>
  `| ${what} | ${fmt(s.p50)} | ${fmt(s.p99)} | ${n0(s.cpuP50)} | ${n0(s.cpuP99)} | ` +
  `${Math.round(s.perSecond).toLocaleString('en-US')} | ` +
  `${Math.round(s.perCpuSecond).toLocaleString('en-US')} | ` +
  `${base ? `${(s.p50 / base.p50).toFixed(1)}x` : '1.0x'} |`;

const loadStart = performance.now();
const nlp = createWinkAdapter();
nlp.tokens('warm');
const loadMs = performance.now() - loadStart;
const hashtags = createBuiltinHashtagEngine({ nlp, lexicon: HASHTAG_LEXICON });
const content = createBuiltinContentEngine({ nlp, hashtags });
const now = new Date();
const observed: ObservedSnapshot = {
  windowDays: 30,
  videos: 5000,
  takenAt: now,
  tags: Array.from({ length: 300 }, (_, i) => ({
    tag:
      ['pastatok', 'foodtok', 'fyp', 'gymtok', 'eldenring', 'makeup', 'traveltips', 'moneytok'][i % 8] +
      (i < 8 ? '' : String(i)),
    videos: 300 - i,
    lastSeen: new Date(now.getTime() - (i % 20) * 86_400_000),
  })),
};

// Warm-up: JIT and the model's lazy tables.
time(3000, (i) => hashtags.generate({ videoTitle: TITLES[i % TITLES.length] }, observed));
time(500, () => content.optimize(CAPTION, ['tiktok']));

const baseline = stats(time(N, (i) => nlp.tokens(TITLES[i % TITLES.length])));
const engine = stats(time(N, (i) => hashtags.generate({ videoTitle: TITLES[i % TITLES.length] }, observed)));
const withDesc = stats(
  time(N, (i) =>
    hashtags.generate({ videoTitle: TITLES[i % TITLES.length], videoDescription: CAPTION, niche: 'food' }, observed),
  ),
);
const optimise = stats(time(Math.min(N, 5000), () => content.optimize(CAPTION, ['tiktok'])));

// The whole request path, in one process (Fastify inject: no sockets).
const t = await createTestApp({ db: 'pglite' });
const pro = await t.signUp({ pro: true });
const cookie = [...pro.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
const headers = { cookie, origin: t.baseUrl, 'content-type': 'application/json' };
const post = (url: string, body: unknown) =>
  t.app.inject({ method: 'POST', url, headers, payload: JSON.stringify(body) });
const HTTP_N = Math.min(N, 3000);
await timeAsync(300, (i) =>
  post('/api/ai/hashtags', { videoTitle: TITLES[i % TITLES.length], platform: 'social media' }),
);
const health = stats(await timeAsync(HTTP_N, () => t.app.inject({ method: 'GET', url: '/api/health' })));
const httpTags = stats(
  await timeAsync(HTTP_N, (i) =>
    post('/api/ai/hashtags', { videoTitle: TITLES[i % TITLES.length], platform: 'social media' }),
  ),
);
const httpOptimise = stats(
  await timeAsync(HTTP_N, () => post('/api/content/optimize', { content: CAPTION, platforms: ['tiktok'] })),
);
await t.close();

console.log(`wink-nlp model load: ${loadMs.toFixed(0)} ms (once per process)`);
console.log(`${N.toLocaleString('en-US')} calls per engine row, ${HTTP_N.toLocaleString('en-US')} per HTTP row\n`);
console.log(
  `load average at the end: ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(', ')} on ${(await import('node:os')).cpus().length} cores\n`,
);
console.log(
  '| What | p50 wall | p99 wall | p50 CPU | p99 CPU | per second (wall) | per CPU-second (one core) | p50 ratio to baseline |',
);
console.log('|---|---|---|---|---|---|---|---|');
console.log(row('Baseline: wink-nlp reads the title', baseline));
console.log(row('Built-in hashtags: title only', engine, baseline));
console.log(row('Built-in hashtags: title + 240-char description + niche', withDesc, baseline));
console.log(row('Built-in caption optimiser: 240 chars, tiktok', optimise, baseline));
console.log(row('HTTP baseline: GET /api/health (one database round trip)', health));
console.log(row('HTTP POST /api/ai/hashtags (Pro session, PGlite)', httpTags, health));
console.log(row('HTTP POST /api/content/optimize (tiktok)', httpOptimise, health));
console.log(
  `\nGoal p99 < 5 ms for the built-in engine: wall ${engine.p99 < 5 && withDesc.p99 < 5 ? 'met' : 'NOT met'}, ` +
    `CPU ${engine.cpuP99 < 5 && withDesc.cpuP99 < 5 ? 'met' : 'NOT met'}`,
);

// Costly text under load (issue 34), run: `npm run bench -- text-routes`. The built server with a Pro
// account; ten clients send the worst inputs found (test/security/costly-text.test.ts) to every text
// route, back to back, while one more client times GET /api/health. Baseline: the same health client
// against the same server with no other traffic. Goals: health p99 under 100 ms under the load, and
// every text request answered within 1 s.
import { startProServer } from './pro-server.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CLIENTS = 10;
const fill = (shape: string, n: number) => shape.repeat(Math.ceil(n / shape.length)).slice(0, n);

const { server, headers } = await startProServer({ TEXT_REQUESTS_PER_MINUTE: '1000000' });
const url = server.url;
let seq = 0;

/** One worst-case request per text route, in turn. */
const REQUESTS: Array<{ name: string; send: () => Promise<Response> }> = [
  {
    name: 'content/optimize http:// x 1,428',
    send: () =>
      post('/api/content/optimize', {
        content: fill('http://', 10_000),
        platforms: ['tiktok', 'instagram', 'youtube', 'linkedin'],
      }),
  },
  {
    name: "content/optimize '#a ' x 3,333",
    send: () => post('/api/content/optimize', { content: fill('#a ', 10_000) }),
  },
  {
    name: 'ai/hashtags http:// (5,000)',
    send: () =>
      post('/api/ai/hashtags', {
        videoTitle: fill('http://', 300),
        videoDescription: fill('http://', 5000),
        niche: fill('!', 100),
      }),
  },
  {
    name: 'ai/hashtags apostrophes (5,000)',
    send: () => post('/api/ai/hashtags', { videoTitle: fill("'", 300), videoDescription: fill("'", 5000) }),
  },
  { name: "blog save '*a' x 50,000", send: () => savePost(fill('*a', 100_000)) },
  { name: "blog save '> ' x 50,000", send: () => savePost(fill('> ', 100_000)) },
  { name: "blog save '![' x 50,000", send: () => savePost(fill('![', 100_000)) },
  { name: "blog save '!' x 100,000", send: () => savePost(fill('!', 100_000)) },
  { name: 'blog read of a 100,000-character post', send: () => fetch(`${url}/api/blog/public/bench-read`) },
];

function post(path: string, body: unknown, method = 'POST') {
  return fetch(url + path, { method, headers, body: JSON.stringify(body) });
}
function savePost(content: string) {
  return post('/api/blog/posts', { title: 'Bench', content, slug: `bench-${++seq}`, status: 'published' });
}

async function timeHealth(until: number): Promise<number[]> {
  const times: number[] = [];
  while (Date.now() < until) {
    const t0 = performance.now();
    const res = await fetch(`${url}/api/health`);
    await res.arrayBuffer();
    times.push(performance.now() - t0);
  }
  return times;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

try {
  // A long post to read, and the text threads started (the process's cold start is not measured).
  const stored = await post('/api/blog/posts', {
    title: 'Read',
    slug: 'bench-read',
    status: 'published',
    content: fill('A paragraph of a long post, with *a little* emphasis.\n\n', 100_000),
  });
  if (stored.status !== 201)
    throw new Error(`could not store the post to read: ${stored.status} ${await stored.text()}`);
  await timeHealth(Date.now() + 2000);

  const alone = await timeHealth(Date.now() + SECONDS * 1000);

  const until = Date.now() + SECONDS * 1000;
  const answers: Array<{ name: string; ms: number; status: number }> = [];
  const client = async (offset: number) => {
    for (let i = offset; Date.now() < until; i++) {
      const r = REQUESTS[i % REQUESTS.length];
      const t0 = performance.now();
      const res = await r.send();
      await res.arrayBuffer();
      answers.push({ name: r.name, ms: performance.now() - t0, status: res.status });
    }
  };
  const [loaded] = await Promise.all([timeHealth(until), ...Array.from({ length: CLIENTS }, (_, c) => client(c))]);

  const p99Alone = pct(alone, 99);
  const p99Loaded = pct(loaded, 99);
  const statuses = new Map<string, number>();
  for (const a of answers) statuses.set(String(a.status), (statuses.get(String(a.status)) ?? 0) + 1);
  const slowest = answers.reduce((m, a) => (a.ms > m.ms ? a : m), answers[0]);
  console.log(
    `text routes: ${CLIENTS} clients x ${SECONDS} s, ${answers.length} text requests (${[...statuses].map(([s, n]) => `${n} x ${s}`).join(', ')})`,
  );
  for (const r of REQUESTS) {
    const mine = answers.filter((a) => a.name === r.name);
    if (mine.length)
      console.log(
        `  ${r.name}: ${mine.length} answers, p50 ${pct(
          mine.map((a) => a.ms),
          50,
        ).toFixed(
          0,
        )} ms, max ${Math.max(...mine.map((a) => a.ms)).toFixed(0)} ms, ${[...new Set(mine.map((a) => a.status))].join('/')}`,
      );
  }
  console.log(`health p99 alone (baseline): ${p99Alone.toFixed(1)} ms over ${alone.length} requests`);
  console.log(
    `health p99 under the text load: ${p99Loaded.toFixed(1)} ms over ${loaded.length} requests = ${(p99Loaded / p99Alone).toFixed(1)}x baseline (goal < 100 ms: ${p99Loaded < 100 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `slowest text answer: ${slowest.ms.toFixed(0)} ms (${slowest.name}, ${slowest.status}) (goal < 1000 ms: ${slowest.ms < 1000 ? 'met' : 'NOT met'})`,
  );
} finally {
  await server.stop();
}

// Issue 42, finding 7: a public post of the largest size (`&` x 100,000: 488 KiB of HTML) read by 30
// clients in a loop, as browsers ask: `Accept-Encoding: br, gzip`, each reader alternating the post's
// page (/blog/<slug>) and its JSON (/api/blog/public/<slug>). Half the readers are returning ones
// (they revalidate with If-None-Match what they were sent), half are new ones every time (no cached
// copy). `/api/health` is timed meanwhile. Bytes are counted as sent (the compressed body on the wire).
import http from 'node:http';
import os from 'node:os';
import zlib from 'node:zlib';
import { startServer } from '../../test/helpers/e2e.js';
import { type AttackResult, healthAtRest, healthDuring } from './health-probe.js';

const CLIENTS = 30;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const SLUG = 'big-post';
const CONTENT = '&'.repeat(100_000);

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(agent: http.Agent, url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

function decoded(a: Answer): string {
  const enc = a.headers['content-encoding'];
  if (enc === 'br') return zlib.brotliDecompressSync(a.body).toString();
  if (enc === 'gzip') return zlib.gunzipSync(a.body).toString();
  return a.body.toString();
}

export default async function bigPost(): Promise<AttackResult> {
  // Saving the post (rendering it) is not what is measured: a budget that a busy machine meets.
  // BENCH_ROOT: another checkout's build (e.g. the commit before the fix), for a comparison.
  const server = await startServer(
    { LOG_LEVEL: 'error', TEXT_WORK_BUDGET_MS: '20000' },
    { root: process.env.BENCH_ROOT || undefined },
  );
  try {
    const reg = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email: `big${Date.now()}@example.com`, password: 'correct horse battery' }),
    });
    const cookie = reg.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const saved = await fetch(`${server.url}/api/blog/posts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url, cookie },
      body: JSON.stringify({ title: 'Big', slug: SLUG, status: 'published', content: CONTENT }),
    });
    if (saved.status !== 201) throw new Error(`post not saved: ${saved.status} ${await saved.text()}`);
    const urls = [`${server.url}/blog/${SLUG}`, `${server.url}/api/blog/public/${SLUG}`];
    // Once, as a check: the JSON decodes to the post (whatever encoding was chosen).
    const first = await get(new http.Agent(), urls[1], { 'accept-encoding': 'br, gzip' });
    const html = JSON.parse(decoded(first)).html as string;
    if (first.status !== 200 || html.length !== 500_008) throw new Error(`unexpected post: ${first.status}`);

    const restP99Ms = await healthAtRest(server.url);
    const tally = { ok: 0, notModified: 0, other: 0, bytes: 0, maxMs: 0 };
    const sizes = new Map<string, number>();
    const until = Date.now() + SECONDS * 1000;
    const reader = async (returning: boolean) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const etags = new Map<string, string>();
      for (let i = 0; Date.now() < until; i++) {
        const url = urls[i % 2];
        const headers: Record<string, string> = { 'accept-encoding': 'br, gzip' };
        const etag = returning ? etags.get(url) : undefined;
        if (etag) headers['if-none-match'] = etag;
        const t0 = performance.now();
        const a = await get(agent, url, headers);
        tally.maxMs = Math.max(tally.maxMs, performance.now() - t0);
        tally.bytes += a.body.length;
        if (a.status === 200) {
          tally.ok++;
          sizes.set(
            `${url === urls[0] ? 'page' : 'json'} ${a.headers['content-encoding'] ?? 'identity'}`,
            a.body.length,
          );
          if (typeof a.headers.etag === 'string') etags.set(url, a.headers.etag);
        } else if (a.status === 304) tally.notModified++;
        else tally.other++;
      }
      agent.destroy();
    };
    const attack = Promise.all(Array.from({ length: CLIENTS }, (_, i) => reader(i % 2 === 0)));
    const { p99 } = await healthDuring(server.url, attack);
    const total = tally.ok + tally.notModified + tally.other;
    const bodies = [...sizes].map(([k, n]) => `${k} ${(n / 1024).toFixed(1)} KiB`).join(', ');
    return {
      name: `big public post (${(html.length / 1024).toFixed(0)} KiB of HTML) read by ${CLIENTS} clients`,
      restP99Ms,
      attackP99Ms: p99,
      notes:
        `${total} reads in ${SECONDS} s (${tally.ok} 200, ${tally.notModified} 304, ${tally.other} other), ` +
        `slowest ${tally.maxMs.toFixed(0)} ms, ${(tally.bytes / 1024 / 1024).toFixed(1)} MiB sent; bodies: ${bodies}; ` +
        `load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`,
    };
  } finally {
    await server.stop();
  }
}

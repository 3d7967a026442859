// Text flood (issue 42, finding 5): four Free accounts each save a costly blog post once a second
// (within TEXT_REQUESTS_PER_MINUTE), while a fifth asks the caption optimiser for a nine-word caption,
// one request after another. Before decision 0087 the caption answered 503 `text.busy` in 30 to 90 %
// of calls (and once 422): it waited behind every queued post. Measured: `/api/health` p99, and the
// quiet account's answers and latency. Run: `ATTACKS=text-flood npx tsx bench/attacks.bench.ts`.
import { startServer } from '../../test/helpers/e2e.js';
import { type AttackResult, healthAtRest, healthDuring } from './health-probe.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
/** The server's TEXT_WORK_BUDGET_MS (600 by default): on a machine that is busy with other work, a
 *  costly post runs over it and every thread is ended in turn, which measures restarts, not sharing. */
const BUDGET_MS = process.env.TEXT_WORK_BUDGET_MS ?? '600';
const fill = (shape: string, n: number) => shape.repeat(Math.ceil(n / shape.length)).slice(0, n);
/** The costliest shape for the renderer found (test/security/costly-text.test.ts), at the longest allowed. */
const COSTLY_POST = fill('![', 100_000);
const CAPTION = 'Garlic butter pasta in ten minutes, the easiest dinner ever';

const pct = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] : NaN;

export default async function textFlood(): Promise<AttackResult> {
  // BENCH_ROOT: another checkout's build, to compare (e.g. the code before decision 0087).
  const server = await startServer(
    { LOG_LEVEL: 'error', TEXT_WORK_BUDGET_MS: BUDGET_MS },
    { root: process.env.BENCH_ROOT || undefined },
  );
  try {
    const url = server.url;
    async function signUp(i: number): Promise<Record<string, string>> {
      const res = await fetch(`${url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url },
        body: JSON.stringify({ email: `flood${i}-${Date.now()}@example.com`, password: 'correct horse battery' }),
      });
      if (res.status !== 201) throw new Error(`sign-up: ${res.status} ${await res.text()}`);
      const cookie = res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      return { 'content-type': 'application/json', origin: url, cookie };
    }
    const busy = await Promise.all([1, 2, 3, 4].map(signUp));
    const quiet = await signUp(5);
    const caption = () =>
      fetch(`${url}/api/content/optimize`, {
        method: 'POST',
        headers: quiet,
        body: JSON.stringify({ content: CAPTION }),
      });
    // The text threads' cold start is not what is measured.
    if ((await caption()).status !== 200) throw new Error('the caption optimiser does not answer');
    const restP99Ms = await healthAtRest(url);

    const saves = new Map<number, number>();
    const quietStatus = new Map<string, number>();
    const quietMs: number[] = [];
    const until = Date.now() + SECONDS * 1000;
    const attack = (async () => {
      const sending: Promise<void>[] = [];
      // Each busy account: one save a second, whether the last one was answered or not.
      for (let second = 0; Date.now() < until; second++) {
        for (const [i, headers] of busy.entries()) {
          const body = JSON.stringify({ title: 'Flood', content: COSTLY_POST, slug: `flood-${i}-${second}` });
          sending.push(
            fetch(`${url}/api/blog/posts`, { method: 'POST', headers, body }).then(async (res) => {
              await res.arrayBuffer();
              saves.set(res.status, (saves.get(res.status) ?? 0) + 1);
            }),
          );
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
      await Promise.all(sending);
    })();
    // The quiet account: one caption after another (well inside its own 60 a minute over the run).
    const asking = (async () => {
      for (let n = 0; Date.now() < until && n < 55; n++) {
        const started = performance.now();
        const res = await caption();
        const body = (await res.json()) as { code?: string };
        quietMs.push(performance.now() - started);
        const key = res.status === 200 ? '200' : `${res.status} ${body.code}`;
        quietStatus.set(key, (quietStatus.get(key) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, (SECONDS * 1000) / 55));
      }
    })();
    const { p99 } = await healthDuring(url, Promise.all([attack, asking]));
    const asked = quietMs.length;
    const ok = quietStatus.get('200') ?? 0;
    const fmt = (m: Map<unknown, number>) => [...m].map(([k, v]) => `${k}: ${v}`).join(', ');
    return {
      name: `text flood (4 accounts saving costly posts, 1 asking captions; budget ${BUDGET_MS} ms)`,
      restP99Ms,
      attackP99Ms: p99,
      notes:
        `quiet captions ${ok}/${asked} answered 200 (${fmt(quietStatus)}), ` +
        `p50 ${pct(quietMs, 50).toFixed(0)} ms, p99 ${pct(quietMs, 99).toFixed(0)} ms; ` +
        `busy saves ${fmt(saves)}`,
    };
  } finally {
    await server.stop();
  }
}

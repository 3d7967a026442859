// What every attack in bench/attacks/ measures: `/api/health` latency from a separate client while the
// attack runs, against the same server's latency at rest (the baseline in the same process tree).
import http from 'node:http';

export interface AttackResult {
  /** What the attack does, in a few words. */
  name: string;
  restP99Ms: number;
  attackP99Ms: number;
  /** Anything else the attack measured (an honest account's wait, answers refused...). */
  notes?: string;
}

const pct = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] : NaN;

function healthOnce(baseUrl: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(`${baseUrl}/api/health`, { agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - started));
      })
      .on('error', reject);
  });
}

/** Asks `/api/health` every `everyMs` until `until` settles; returns p99 in ms (and the samples). */
export async function healthDuring<T>(
  baseUrl: string,
  until: Promise<T>,
  everyMs = 50,
): Promise<{ p99: number; samples: number[]; value: T }> {
  const samples: number[] = [];
  let done = false;
  const settled = until.finally(() => {
    done = true;
  });
  const probe = (async () => {
    while (!done) {
      samples.push(await healthOnce(baseUrl));
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  const value = await settled;
  await probe;
  return { p99: pct(samples, 99), samples, value };
}

/** `/api/health` p99 at rest, over `ms`. */
export async function healthAtRest(baseUrl: string, ms = 3000): Promise<number> {
  return (await healthDuring(baseUrl, new Promise((r) => setTimeout(r, ms)))).p99;
}

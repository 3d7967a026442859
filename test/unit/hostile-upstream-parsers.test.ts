// Every parser of what another server sends (captions, TikTok pages, feeds, Bluesky posts and DID
// documents, Reddit manifests and posts) costs its input's length (issue 42). Before the fix, one captions cue of 120,000 `<`
// held the event loop 14 s, 120 KB of `<p id="wci" ` in a TikTok page minutes, and 2 MB of cues at
// 0:00 never finished. Each case runs in a worker thread (a stuck parse can be stopped there) at
// 200 KB and at 2 MB: a linear parser takes about ten times as long for the larger, a quadratic one
// a hundred times (hours, for most of these shapes). Only that ratio is asserted, with room for a
// busy 2-core machine: the larger in under 20 times the smaller plus 2 s, and never past 25 s.
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { CASES } from './hostile-upstream-cases.js';

const SMALL = 200 * 1024;
const LARGE = 2 * 1024 * 1024;
const STOP_MS = 25_000;

let worker: Worker | null = null;
function thread(): Worker {
  // The thread registers tsx's loader itself (`--import tsx` in a worker's execArgv does not reach
  // its first file here), then imports the TypeScript.
  const file = JSON.stringify(new URL('./hostile-upstream-worker.ts', import.meta.url).href);
  worker ??= new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${file}); })`, {
    eval: true,
  });
  return worker;
}

/** The case's time at `bytes`, in ms; Infinity when it was still running after STOP_MS (thread ended). */
function timeCase(name: string, bytes: number): Promise<number> {
  const w = thread();
  return new Promise((resolve, reject) => {
    const stop = setTimeout(() => {
      w.off('message', done);
      worker = null;
      void w.terminate();
      resolve(Number.POSITIVE_INFINITY);
    }, STOP_MS);
    const done = (ms: number) => {
      clearTimeout(stop);
      w.off('error', failed);
      resolve(ms);
    };
    const failed = (err: Error) => {
      clearTimeout(stop);
      worker = null;
      reject(err);
    };
    w.once('message', done);
    w.once('error', failed);
    w.postMessage({ name, bytes });
  });
}

afterAll(async () => {
  await worker?.terminate();
});

describe('parsers of upstream data on 2 MB of hostile input', () => {
  for (const name of Object.keys(CASES)) {
    it(`${name}: linear in its length`, { timeout: 4 * STOP_MS }, async () => {
      await timeCase(name, SMALL); // warm-up: the first run compiles
      const small = await timeCase(name, SMALL);
      const large = await timeCase(name, LARGE);
      expect(large, `${Math.round(small)} ms at 200 KB, ${Math.round(large)} ms at 2 MB`).toBeLessThan(
        Math.min(STOP_MS, small * 20 + 2000),
      );
    });
  }
});

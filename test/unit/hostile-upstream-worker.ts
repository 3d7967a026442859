// Worker thread for hostile-upstream-parsers.test.ts: runs one case of hostile-upstream-cases.ts at
// a given size and answers the time it took.
import { parentPort } from 'node:worker_threads';
import { CASES } from './hostile-upstream-cases.js';

parentPort?.on('message', ({ name, bytes }: { name: string; bytes: number }) => {
  const started = performance.now();
  CASES[name](bytes);
  parentPort?.postMessage(performance.now() - started);
});

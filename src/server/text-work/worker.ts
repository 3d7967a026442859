// Entry of a text worker thread (threads.ts): one task runner per thread, its NLP model loaded once
// when the thread starts. Built to dist/server/text-worker.js (scripts/build.mjs).
import { parentPort, workerData } from 'node:worker_threads';
import { createTextTaskRunner, type TextTask, type TextTaskSetup } from './tasks.js';
import type { FromThread, ToThread } from './threads.js';

const run = createTextTaskRunner(workerData as TextTaskSetup);
// Each engine once now, on a few kilobytes, so the model's data is read and the code compiled before
// the first request's time budget starts (a cold markdown-it took 0.6 s on a 100,000-character post).
const sample =
  '## Warm up\n\nA *short* paragraph with a [link](https://example.com) and #tags. Another sentence!\n\n- one\n- two\n\n';
for (let i = 0; i < 3; i++) {
  run({
    kind: 'hashtags',
    input: { videoTitle: 'Garlic butter pasta', videoDescription: sample.repeat(40) },
    observed: null,
  });
  run({ kind: 'prepare', content: sample.repeat(80) });
  // A post of the largest size once: the heap grows to it now, not during a request.
  run({ kind: 'post', markdown: sample.repeat(i === 0 ? 900 : 50) });
}

const port = parentPort;
if (!port) throw new Error('worker.ts runs in a worker thread');
const send = (msg: FromThread) => port.postMessage(msg);
// One task at a time: the pool sends the next only after this one's answer.
port.on('message', ({ id, task }: ToThread) => {
  try {
    send({ id, value: run(task as TextTask) });
  } catch (err) {
    send({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
send({ ready: true });

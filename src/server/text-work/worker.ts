// Entry of a text worker thread (piscina): one task runner per thread, its NLP model loaded once
// when the thread starts. Built to dist/server/text-worker.js (scripts/build.mjs).
import { workerData } from 'node:worker_threads';
import { createTextTaskRunner, type TextTask, type TextTaskSetup } from './tasks.js';

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

export default function textTask(task: TextTask): unknown {
  return run(task);
}

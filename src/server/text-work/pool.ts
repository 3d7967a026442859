// Text work off the main thread (issue 34, decision 0041): a piscina pool of worker threads running
// tasks.ts, each task with a time budget. A task still running when its budget ends is stopped (its
// thread is ended and replaced) and answered 422 `text.too_complex`; one that waited its whole budget
// in line, or found the line full, is 503 `text.busy`. The main thread never runs NLP or Markdown, so
// `/api/health` and every other request keep answering whatever text arrives.
import os from 'node:os';
import { Piscina } from 'piscina';
import { fail, retryAfter } from '../errors.js';
import { createTextTaskRunner, type TextTaskSetup, type TextTasks, type TextTaskKind, type TextTask } from './tasks.js';

export interface TextWorkOptions extends TextTaskSetup {
  /** Worker threads; 0 runs the tasks in this thread (no budget: for tools and tests that want it). */
  threads: number;
  /** How long one task may take, waiting in line included, before it is answered 422 or 503. */
  budgetMs: number;
  /** Tasks waiting per thread before new ones are answered 503 at once. */
  queuePerThread?: number;
}

export interface TextWork {
  run<K extends TextTaskKind>(kind: K, input: TextTasks[K]['input']): Promise<TextTasks[K]['output']>;
  close(): Promise<void>;
}

export const defaultTextWorkers = () => Math.max(1, Math.min(4, os.availableParallelism() - 1));

// From the sources (tsx, vitest) the thread loads worker.ts through tsx; from the build, the bundle
// beside dist/server/main.js.
const fromSource = import.meta.url.endsWith('.ts');
const workerFile = new URL(fromSource ? './worker.ts' : './text-worker.js', import.meta.url).href;

export function createTextWork(opts: TextWorkOptions): TextWork {
  if (opts.threads === 0) {
    let runner: ((task: TextTask) => unknown) | null = null;
    return {
      async run(kind, input) {
        runner ??= createTextTaskRunner(opts);
        return runner({ kind, ...input } as TextTask) as never;
      },
      async close() {},
    };
  }
  let pool: Piscina | null = null;
  let ready: Promise<unknown> | null = null;
  let inFlight = 0;
  // Created on first use: a process that never gets text starts no thread.
  function start(): Promise<unknown> {
    if (!ready) {
      pool = new Piscina({
        filename: workerFile,
        minThreads: opts.threads,
        maxThreads: opts.threads,
        maxQueue: opts.threads * (opts.queuePerThread ?? 16),
        idleTimeout: 60_000,
        execArgv: fromSource ? ['--import', 'tsx'] : [],
        workerData: { imageSecret: opts.imageSecret } satisfies TextTaskSetup,
        // A task that balloons ends its own thread, not the server.
        resourceLimits: { maxOldGenerationSizeMb: 512 },
      });
      warmUp(pool);
    }
    return ready as Promise<unknown>;
  }
  // A thread's start (loading the model) is not counted against a task's budget: tasks wait for a
  // warm-up task first, at the start and after a thread was ended for running over its budget.
  function warmUp(p: Piscina) {
    ready = p.run({ kind: 'hashtags', input: { videoTitle: 'ready' }, observed: null } satisfies TextTask);
  }

  return {
    async run(kind, input) {
      // The pool's first start (threads loading the model) is the process's cold start, outside any
      // budget; a thread restarted after a task ran over counts as a wait in line (503).
      if (!pool) await start();
      const deadline = Date.now() + opts.budgetMs;
      const started = await Promise.race([start().then(() => true), sleep(opts.budgetMs).then(() => false)]);
      if (!started) throw busy();
      const p = pool as Piscina;
      // With a thread free at submission the task runs at once: running out of budget is then the text's doing.
      const runsAtOnce = inFlight < opts.threads;
      if (!runsAtOnce && p.queueSize >= p.options.maxQueue) throw busy();
      inFlight++;
      try {
        const signal = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
        return await p.run({ kind, ...input } as TextTask, { signal });
      } catch (err) {
        const e = err as { name?: string; code?: string; message?: string };
        if (e.name === 'AbortError' && runsAtOnce) {
          warmUp(p);
          throw fail('text.too_complex');
        }
        if (e.name === 'AbortError') throw busy();
        if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') throw fail('text.too_complex');
        if (/queue is at limit/i.test(e.message ?? '')) throw busy();
        throw err;
      } finally {
        inFlight--;
      }
    },
    async close() {
      if (pool) await pool.destroy();
      pool = null;
      ready = null;
    },
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
const busy = () => fail('text.busy', undefined, {}, retryAfter(2));

// Text work off the main thread (issue 34, decision 0041), shared fairly between accounts (issue 42,
// decision 0087). Each task names its owner (an account, or an address when signed out) and waits in
// that owner's line (fair-queue.ts); a free thread takes the next owner's task, so a quiet owner's
// caption goes next instead of behind every costly post the busy ones queued. The budget is two
// clocks: a task that waited its budget in line is 503 `text.busy`; one that ran its budget on a
// thread is stopped (its thread ended and replaced) and is 422 `text.too_complex` — only that task,
// and only for its own work. A spare thread keeps the full count of threads ready while a stopped one
// is replaced. The main thread never runs NLP or Markdown, so every other request keeps answering.
import os from 'node:os';
import { fail, retryAfter } from '../errors.js';
import { FairQueue } from './fair-queue.js';
import { createTextTaskRunner, type TextTaskSetup, type TextTasks, type TextTaskKind, type TextTask } from './tasks.js';
import { ThreadSet } from './threads.js';

export interface TextWorkOptions extends TextTaskSetup {
  /** Worker threads; 0 runs the tasks in this thread (no budget: for tools and tests that want it). */
  threads: number;
  /** How long one task may run on a thread (422 past it), and, apart, wait in line (503 past it). */
  budgetMs: number;
  /** Tasks waiting in all, per thread; when full, the owner with the most waiting gives way. */
  queuePerThread?: number;
  /** Tasks one owner may have waiting; past it, that owner's next is 503 at once. */
  queuePerOwner?: number;
}

export interface TextWork {
  /** `owner`: whose work this is (an account id, or `ip:<address>` when signed out). */
  run<K extends TextTaskKind>(kind: K, input: TextTasks[K]['input'], owner: string): Promise<TextTasks[K]['output']>;
  close(): Promise<void>;
}

export const defaultTextWorkers = () => Math.max(1, Math.min(4, os.availableParallelism() - 1));

// From the sources (tsx, vitest) the thread loads worker.ts through tsx; from the build, the bundle
// beside dist/server/main.js.
const fromSource = import.meta.url.endsWith('.ts');
const workerFile = new URL(fromSource ? './source-worker.cjs' : './text-worker.js', import.meta.url);

interface Waiting {
  task: TextTask;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  timer?: NodeJS.Timeout;
}

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
  const line = new FairQueue<Waiting>(opts.queuePerOwner ?? 4, opts.threads * (opts.queuePerThread ?? 16));
  let threads: ThreadSet | null = null;
  let ready: Promise<void> | null = null;
  let running = 0;
  /** When an owner's task was last stopped for running over (each costs a thread's restart). */
  const overranAt = new Map<string, number>();
  const overranLately = (owner: string) => Date.now() - (overranAt.get(owner) ?? -Infinity) < OVERRAN_LATELY_MS;
  // An owner whose task ran over lately gets a thread only if another stays ready: accounts sending
  // text that always runs over end one thread at a time, never all, and the rest keep being served.
  const may = (owner: string) => !overranLately(owner) || (threads?.idleCount() ?? 0) >= 2;

  // Created on first use: a process that never gets text starts no thread. The first start (threads
  // loading the model) is the process's cold start, outside any budget.
  function start(): Promise<void> {
    if (!ready) {
      const set = new ThreadSet({
        size: opts.threads + 1,
        file: workerFile,
        workerData: { imageSecret: opts.imageSecret } satisfies TextTaskSetup,
        onIdle: dispatch,
      });
      threads = set;
      ready = set.start().catch(async (err: unknown) => {
        // A thread that cannot start (a broken build): the next task tries again.
        threads = ready = null;
        await set.close(err);
        throw err;
      });
    }
    return ready;
  }

  // Up to `threads` tasks run at once; the spare thread is there for when one is being replaced.
  function dispatch() {
    while (threads && running < opts.threads) {
      const thread = threads.idle();
      if (!thread) return;
      const next = line.next(may);
      if (!next) return;
      const { owner, item } = next;
      clearTimeout(item.timer);
      running++;
      const set = threads;
      let overran = false;
      const startedAt = Date.now();
      const timer = setTimeout(() => {
        overran = true;
        overranAt.set(owner, Date.now());
        if (overranAt.size > 1000) {
          for (const [key] of overranAt) if (!overranLately(key)) overranAt.delete(key);
        }
        set.stop(thread, fail('text.too_complex'));
      }, opts.budgetMs);
      set
        .run(thread, item.task)
        .then(item.resolve, (err: unknown) => {
          const code = (err as { code?: string }).code;
          item.reject(overran || code === 'ERR_WORKER_OUT_OF_MEMORY' ? fail('text.too_complex') : err);
        })
        .finally(() => {
          clearTimeout(timer);
          running--;
          line.done(owner, Date.now() - startedAt);
          dispatch();
        });
    }
  }

  return {
    async run(kind, input, owner) {
      await start();
      return new Promise((resolve, reject) => {
        const waiting: Waiting = { task: { kind, ...input } as TextTask, resolve, reject };
        const refused = line.add(owner, waiting);
        if (refused) {
          clearTimeout(refused.timer);
          refused.reject(busy());
          if (refused === waiting) return;
        }
        // Waited its budget: 503. A quiet owner's task is next in line, so it waits no longer than
        // the task running when it came. One more turn of the event loop first: a thread's answer
        // that arrived meanwhile (the loop was busy) frees a thread for it.
        waiting.timer = setTimeout(() => {
          setImmediate(() => {
            if (line.remove(owner, waiting)) reject(busy());
          });
        }, opts.budgetMs);
        dispatch();
      }) as never;
    },
    // Closing (the server stops): what waits or runs is answered busy, to be sent again.
    async close() {
      const set = threads;
      threads = ready = null;
      for (const waiting of line.drain()) {
        clearTimeout(waiting.timer);
        waiting.reject(busy());
      }
      if (set) await set.close(busy());
    },
  };
}

/** How long an owner whose task ran over is served only while another thread stays ready. */
const OVERRAN_LATELY_MS = 60_000;
const busy = () => fail('text.busy', undefined, {}, retryAfter(2));

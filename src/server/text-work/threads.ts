// The text worker threads themselves (decision 0087): each loads the model and warms up before it
// says it is ready, then runs one task at a time. The set knows which thread is ready and idle, so a
// task is only ever handed to a thread that starts it at once: its clock then measures its own work.
// Stopping a thread fails the task it runs, and only that one; a replacement starts at once.
import { Worker } from 'node:worker_threads';

/** Messages from a thread (worker.ts). */
export type FromThread = { ready: true } | { id: number; value: unknown } | { id: number; error: string };
/** A task for a thread. */
export interface ToThread {
  id: number;
  task: unknown;
}

interface Job {
  id: number;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

export interface Thread {
  readonly worker: Worker;
  state: 'starting' | 'idle' | 'busy' | 'ended';
  job: Job | null;
}

export interface ThreadSetOptions {
  size: number;
  /** source-worker.cjs (worker.ts through tsx) or the built text-worker.js. */
  file: URL;
  workerData: unknown;
  /** Called whenever a thread becomes ready for a task (started, or done with one). */
  onIdle: () => void;
}

/** A thread that died before it was ready is started again after this pause, not in a tight loop. */
const RESTART_PAUSE_MS = 1000;

export class ThreadSet {
  private readonly threads = new Set<Thread>();
  private nextId = 1;
  private closed = false;
  private firstStart: { resolve: () => void; reject: (err: unknown) => void; pending: number } | null = null;

  constructor(private readonly opts: ThreadSetOptions) {}

  /** Starts every thread; settles when all are ready (or one failed to start). */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.firstStart = { resolve, reject, pending: this.opts.size };
      for (let i = 0; i < this.opts.size; i++) this.spawn();
    });
  }

  idleCount(): number {
    let n = 0;
    for (const t of this.threads) if (t.state === 'idle') n++;
    return n;
  }

  idle(): Thread | undefined {
    for (const t of this.threads) if (t.state === 'idle') return t;
    return undefined;
  }

  /** Runs `task` on `thread` (idle). */
  run(thread: Thread, task: unknown): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      thread.state = 'busy';
      thread.job = { id, resolve, reject };
      thread.worker.postMessage({ id, task } satisfies ToThread);
    });
  }

  /** Ends `thread`, failing its task with `reason`; a new thread takes its place. */
  stop(thread: Thread, reason: unknown): void {
    this.end(thread, reason);
    void thread.worker.terminate();
  }

  /** Ends every thread, failing the tasks they run with `reason`. */
  async close(reason: unknown): Promise<void> {
    this.closed = true;
    const all = [...this.threads];
    for (const t of all) this.end(t, reason);
    await Promise.all(all.map((t) => t.worker.terminate()));
  }

  private spawn() {
    if (this.closed) return;
    const worker = new Worker(this.opts.file, {
      execArgv: this.opts.file.pathname.endsWith('.cjs') ? ['--import', 'tsx'] : [],
      workerData: this.opts.workerData,
      // A task that balloons ends its own thread, not the server.
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    const thread: Thread = { worker, state: 'starting', job: null };
    this.threads.add(thread);
    worker.on('message', (msg: FromThread) => {
      if ('ready' in msg) {
        if (thread.state !== 'starting') return;
        thread.state = 'idle';
        this.started(null);
        this.opts.onIdle();
        return;
      }
      const job = thread.job;
      if (!job || job.id !== msg.id) return;
      thread.job = null;
      thread.state = 'idle';
      if ('error' in msg) job.reject(new Error(msg.error));
      else job.resolve(msg.value);
      this.opts.onIdle();
    });
    // Out of memory (resourceLimits), or a failure outside any task: the thread ends.
    worker.on('error', (err) => this.end(thread, err));
    worker.on('exit', () => this.end(thread, new Error('text worker thread exited')));
  }

  /** Forgets `thread` once (stopped, failed or exited), failing its task, and starts a replacement. */
  private end(thread: Thread, reason: unknown) {
    if (thread.state === 'ended') return;
    const wasReady = thread.state !== 'starting';
    thread.state = 'ended';
    this.threads.delete(thread);
    thread.job?.reject(reason);
    thread.job = null;
    if (this.closed) return;
    if (wasReady) return this.spawn();
    this.started(reason);
    setTimeout(() => this.spawn(), RESTART_PAUSE_MS).unref();
  }

  /** The first start: done when every thread is ready; failed when one dies before. */
  private started(err: unknown) {
    const first = this.firstStart;
    if (!first) return;
    if (err) {
      this.firstStart = null;
      first.reject(err);
    } else if (--first.pending === 0) {
      this.firstStart = null;
      first.resolve();
    }
  }
}

// What runs beside the requests (job queue, schedules, re-renders): started with the server, stopped
// on close. Most of it is not needed by a first request, so it starts after the server is ready
// instead of before it (`deferred`, decision 0075); a request that needs it waits for it (the job
// queue's gate, openLater below).

export interface BackgroundTask {
  name: string;
  start(): unknown;
  stop(): unknown;
  /** Started after the server is ready, in this order, without holding the start. */
  deferred?: boolean;
}

export interface Background {
  /** Starts the tasks the server needs before it answers; the deferred ones follow on their own. */
  start(): Promise<void>;
  /** Settles when the deferred tasks are up (rejects with the first failure), after start(). */
  started(): Promise<void>;
  /** Stops every task in reverse order, once the deferred start has settled. */
  stop(): Promise<void>;
}

export function runBackground(tasks: BackgroundTask[]): Background {
  let later: Promise<void> | null = null;
  const up = openLater();
  return {
    async start() {
      for (const task of tasks) if (!task.deferred) await task.start();
      later = (async () => {
        // A turn of the event loop first: listen() and the first requests come before this work.
        await new Promise((resolve) => setImmediate(resolve));
        for (const task of tasks) if (task.deferred) await task.start();
      })();
      later.then(up.open, up.fail); // reported through started(); never an unhandled rejection
    },
    started: () => up.promise,
    async stop() {
      await later?.catch(() => undefined);
      for (const task of [...tasks].reverse()) await task.stop();
    },
  };
}

/** A promise opened (or failed) later by whoever holds it. */
export function openLater() {
  let open!: () => void;
  let fail!: (err: unknown) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  promise.catch(() => undefined); // waiters see the failure; nobody waiting is no crash
  return { promise, open, fail };
}

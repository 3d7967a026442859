// The job queue (issue 21, decision 0021): pg-boss on the database the product already has,
// PostgreSQL through its URL or the embedded PGlite through raw SQL, so jobs and schedules are
// shared by every node on one database. Only this file and pgboss-tables.ts (what pg-boss has no
// public call for) know pg-boss (12; decision 0096).
import type { ConstructorOptions, PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { JobsConnection } from '../../db/client.js';
import { createFairWorker, type FetchedJob } from './fair-worker.js';
import { createJobNews, lineKey } from './job-news.js';
import { carryOver, setAsideOldSchema } from './pgboss-10-carry-over.js';
import { pgBossTables } from './pgboss-tables.js';

export interface JobHandlerContext {
  id: string;
  data: Record<string, unknown>;
  signal: AbortSignal;
  /** False on the last attempt: a failure now is final. */
  willRetry: boolean;
}

export interface QueueDefinition {
  name: string;
  /** Handlers running at once on this node. */
  concurrency?: number;
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** How long the job may run before it is given to another worker (a worker killed mid-job). */
  expireInSeconds?: number;
  /** `stately`: at most one job per singleton key waiting (and one running) at a time. */
  policy?: 'standard' | 'stately';
  /** Running handlers see a cancellation (cancel() on any node) through their signal. */
  cancellable?: boolean;
  /**
   * At most this many of the node's `concurrency` jobs with the same `data.owner` at once; the
   * owner's others wait in line, in their place, without holding a slot (fair-worker.ts; a job's
   * pg-boss group is its owner, and pg-boss's fetch leaves out the groups at their share).
   */
  ownerShare?: number;
}

export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
export interface JobStatus {
  state: JobState;
  data: Record<string, unknown>;
  output: Record<string, unknown> | null;
  /** Place in the waiting line (1 = next) while created or retrying. */
  position?: number;
}

export interface SendOptions {
  priority?: number;
  singletonKey?: string;
  retries?: number;
  backoffSeconds?: number;
  timeoutSeconds?: number;
}

/** How often a running cancellable handler looks whether another node cancelled its job. */
const CANCEL_POLL_MS = 1000;

export function createJobQueue(opts: {
  connection: JobsConnection;
  logger: Logger;
  pollingIntervalSeconds?: number;
  maintenanceSeconds?: number;
  /**
   * What the calls a request makes (send, status, cancel, ...) wait for: the server answers before
   * its queues are declared (decision 0075), so a job sent meanwhile waits here, never lost.
   */
  gate?: Promise<unknown>;
}) {
  const gate = opts.gate ?? Promise.resolve();
  /** `fn`, run once the gate is open. */
  const gated =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await gate;
      return fn(...args);
    };
  const connection =
    'connectionString' in opts.connection
      ? { connectionString: opts.connection.connectionString, max: 4 }
      : { db: { executeSql: opts.connection.executeSql }, backend: 'pglite' as const };
  // pg-boss (and the pg driver it brings) is loaded by start(), not by the server's start: on
  // PGlite the queue starts after the server answers (decisions 0075, 0077). Every other call
  // comes after start() (the gate, define and work follow it).
  let boss!: PgBoss;
  const open = async () => {
    const { PgBoss: PgBossClass } = await import('pg-boss');
    boss = new PgBossClass({
      ...connection,
      schema: 'pgboss',
      schedule: true,
      supervise: true,
      // pg-boss 12 splits what 10's maintenance did: expired jobs are failed (retried) by the
      // supervise/monitor pass, old ones deleted by maintenance. One interval for all three.
      maintenanceIntervalSeconds: opts.maintenanceSeconds ?? 60,
      superviseIntervalSeconds: opts.maintenanceSeconds ?? 60,
      monitorIntervalSeconds: opts.maintenanceSeconds ?? 60,
    } satisfies ConstructorOptions);
    boss.on('error', (err) => opts.logger.warn({ err: err.message }, 'job queue error'));
    await setAsideOldSchema(opts.connection);
    await boss.start();
    await news.start((text, values) => boss.getDb().executeSql(text, values));
  };
  const stopping = new AbortController();
  const polling = opts.pollingIntervalSeconds ?? 1;
  let started: Promise<unknown> | null = null;
  // pg-boss waits a polling interval after an empty fetch; a worker that just finished a job, or
  // a queue this node just sent to, is woken at once instead (a busy queue drains without pauses).
  const workersOf = new Map<string, Array<() => void>>();
  const wake = (name: string) => {
    for (const notify of workersOf.get(name) ?? []) notify();
  };
  // A send on another node (a web node, or the node a request reached) wakes this node's workers of
  // the queue through the job news (LISTEN/NOTIFY) instead of at their next poll (issue 46).
  const sentKey = (name: string) => `sent:${name}`;
  const woken = new Set<string>();
  const wakeOnSends = (name: string) => {
    if (!woken.has(name)) news.hear(sentKey(name), () => wake(name));
    woken.add(name);
  };
  const fairWorkers: Array<ReturnType<typeof createFairWorker>> = [];
  // Who waits for a job's news (a long poll) hears it here and, on PostgreSQL, from other nodes.
  const news = createJobNews(opts.connection, opts.logger);
  // Handlers running on this node, so a cancel() here stops them at once.
  const running = new Map<string, AbortController>();
  const sql = async <T>(text: string, values: unknown[]): Promise<T[]> =>
    ((await boss.getDb().executeSql(text, values)) as { rows: T[] }).rows;
  const tables = pgBossTables(sql);
  const stateOf = async (name: string, id: string) => (await boss.getJobById(name, id))?.state;

  return {
    start(): Promise<unknown> {
      started ??= open();
      return started;
    },
    /** Creates the queue, or brings an existing one to these settings (they may change between releases). */
    async define(q: QueueDefinition) {
      const options = {
        retryLimit: q.retryLimit ?? 0,
        retryDelay: q.retryDelaySeconds ?? 10,
        retryBackoff: true,
        expireInSeconds: q.expireInSeconds ?? 15 * 60,
      };
      await boss.createQueue(q.name, { ...options, policy: q.policy ?? 'standard' });
      await boss.updateQueue(q.name, options);
      const carried = await carryOver(sql, q.name, (jobs) => boss.insert(q.name, jobs));
      if (carried)
        opts.logger.info({ queue: q.name, jobs: carried }, "open jobs carried over from pg-boss 10's schema");
    },
    /** Runs jobs of `name` on this node, at most `concurrency` at once, highest priority first. */
    async work(q: QueueDefinition, handler: (job: JobHandlerContext) => Promise<unknown>) {
      const workers = Math.max(1, q.concurrency ?? 1);
      wakeOnSends(q.name);
      const runJob = async (job: { id: string; data: Record<string, unknown> | null; willRetry: boolean }) => {
        const own = new AbortController();
        running.set(job.id, own);
        // Another node's cancel() reaches this handler within a poll.
        const watch = q.cancellable
          ? setInterval(
              () =>
                void stateOf(q.name, job.id).then(
                  (s) => s === 'cancelled' && own.abort(),
                  () => undefined,
                ),
              CANCEL_POLL_MS,
            )
          : undefined;
        try {
          const signal = AbortSignal.any([stopping.signal, own.signal]);
          return await handler({ id: job.id, data: job.data ?? {}, signal, willRetry: job.willRetry });
        } finally {
          clearInterval(watch);
          running.delete(job.id);
        }
      };
      if (q.ownerShare !== undefined) {
        const fair = createFairWorker({
          concurrency: workers,
          share: q.ownerShare,
          pollingMs: polling * 1000,
          fetch: async (skip): Promise<FetchedJob | undefined> => {
            // pg-boss's own fetch: priority, then age; a job's group is its owner (send), and the
            // owners at their share are left out (ignoreGroups), as are stately keys already running.
            const [job] = await boss.fetch<Record<string, unknown>>(q.name, {
              batchSize: 1,
              includeMetadata: true,
              ignoreGroups: skip,
            });
            return (
              job && {
                id: job.id,
                data: job.data,
                retryCount: job.retryCount,
                retryLimit: job.retryLimit,
                expireInSeconds: job.expireInSeconds,
              }
            );
          },
          run: (job) => runJob({ ...job, willRetry: job.retryCount < job.retryLimit }),
          complete: (id, output) => boss.complete(q.name, id, output as object),
          fail: (id, err) => boss.fail(q.name, id, err as object),
          changed: (id) => {
            news.tell(id);
            news.tell(lineKey(q.name));
          },
          onError: (err) => opts.logger.warn({ err: (err as Error)?.message, queue: q.name }, 'job queue error'),
        });
        fairWorkers.push(fair);
        workersOf.set(q.name, [...(workersOf.get(q.name) ?? []), fair.wake]);
        fair.wake();
        return;
      }
      const workOptions = { batchSize: 1, pollingIntervalSeconds: polling, includeMetadata: true } as const;
      for (let i = 0; i < workers; i++) {
        let self = '';
        self = await boss.work<Record<string, unknown>, unknown, typeof workOptions>(
          q.name,
          workOptions,
          async ([job]) => {
            try {
              return await runJob({ id: job.id, data: job.data, willRetry: job.retryCount < job.retryLimit });
            } finally {
              boss.notifyWorker(self); // fetch the next job now, not after the interval
            }
          },
        );
        workersOf.set(q.name, [...(workersOf.get(q.name) ?? []), () => boss.notifyWorker(self)]);
      }
    },
    /**
     * Enqueues a job; a `singletonKey` keeps one such job queued or running at a time. The retry
     * rule and time limit of its kind (jobs/catalogue.ts) override the queue's.
     */
    send: gated(async (name: string, data: object = {}, options: SendOptions = {}) => {
      const { retries, backoffSeconds, timeoutSeconds, ...rest } = options;
      const owner = (data as { owner?: unknown }).owner;
      const id = await boss.send(name, data, {
        ...rest,
        // The owner's share on a node is counted per group (QueueDefinition.ownerShare).
        ...(typeof owner === 'string' && owner ? { group: { id: owner } } : {}),
        ...(retries !== undefined ? { retryLimit: retries, retryBackoff: true } : {}),
        ...(backoffSeconds !== undefined ? { retryDelay: backoffSeconds } : {}),
        ...(timeoutSeconds !== undefined ? { expireInSeconds: timeoutSeconds } : {}),
      });
      wake(name);
      news.tell(sentKey(name));
      return id;
    }),
    openJob: gated(tables.openJob),
    openCounts: gated(tables.openCounts),
    /** A job's state, data, output and (asked for, while it waits) its place in line, in pg-boss's fetch order. */
    status: gated(async (name: string, id: string, opts: { position?: boolean } = {}): Promise<JobStatus | null> => {
      const job = await boss.getJobById<Record<string, unknown>>(name, id);
      if (!job) return null;
      const waits = job.state === 'created' || job.state === 'retry';
      const position = opts.position && waits ? await tables.position(name, id) : null;
      return {
        state: job.state,
        data: job.data ?? {},
        output: (job.output as Record<string, unknown> | null) ?? null,
        ...(position !== null ? { position } : {}),
      };
    }),
    /** A requester joins the job (they may follow it); `keep`: it is never cancelled when waiters leave. */
    join: gated(tables.join),
    /** Marks a job as wanted by someone who is not connected (it is never cancelled on leave). */
    keep: gated((name: string, id: string) => tables.join(name, id, { keep: true })),
    /** Where a running job stands (0..100), kept in its data so every node's status() reads it. */
    setProgress: gated(async (name: string, id: string, percent: number) => {
      await tables.setProgress(name, id, percent);
      news.tell(id);
    }),
    /** Calls `fn` when job `id` (or, with lineKey(queue), a queue's line) may have changed, on any node. */
    onNews: (key: string, fn: () => void) => news.hear(key, fn),
    /** Cancels an open job even if kept (the person who asked for it said stop). */
    cancel: gated(async (name: string, id: string): Promise<boolean> => {
      const before = await boss.getJobById(name, id);
      if (!before || !['created', 'retry', 'active'].includes(before.state)) return false;
      await boss.cancel(name, id);
      running.get(id)?.abort();
      news.tell(id);
      news.tell(lineKey(name));
      return true;
    }),
    /** Cancels an open job unless it is kept; a handler running it here stops now, elsewhere within a poll. */
    cancelUnlessKept: gated(async (name: string, id: string): Promise<boolean> => {
      const cancelled = await tables.cancelUnlessKept(name, id);
      if (cancelled) {
        running.get(id)?.abort();
        news.tell(id);
        news.tell(lineKey(name));
      }
      return cancelled;
    }),
    /** A cron schedule: pg-boss fires it once per tick across every node on the database. */
    every(name: string, cron: string, data: object = {}) {
      return boss.schedule(name, cron, data);
    },
    async stop() {
      stopping.abort();
      // Our own workers end their jobs (fail: retried elsewhere) while the database is still open.
      await Promise.all(fairWorkers.map((w) => w.stop(10_000)));
      await news.stop();
      // boss is unset only while start() is still loading pg-boss (background.ts waits for it).
      // pg-boss 12's stop waits for the running handlers (at most `timeout`), then closes its pool.
      if (started && boss) await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}
export type JobQueue = ReturnType<typeof createJobQueue>;

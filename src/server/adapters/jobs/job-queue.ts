// The job queue (issue 21, decision 0021): pg-boss on the database the product already has,
// PostgreSQL through its URL or the embedded PGlite through raw SQL, so jobs and schedules are
// shared by every node on one database. Only this file knows pg-boss.
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { JobsConnection } from '../../db/client.js';

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
}

export function createJobQueue(opts: { connection: JobsConnection; logger: Logger; pollingIntervalSeconds?: number; maintenanceSeconds?: number }) {
  const connection = 'connectionString' in opts.connection ? { connectionString: opts.connection.connectionString, max: 4 } : { db: { executeSql: opts.connection.executeSql } };
  const boss = new PgBoss({ ...connection, schema: 'pgboss', schedule: true, supervise: true, maintenanceIntervalSeconds: opts.maintenanceSeconds ?? 60 } as PgBoss.ConstructorOptions);
  boss.on('error', (err) => opts.logger.warn({ err: err.message }, 'job queue error'));
  const stopping = new AbortController();
  const polling = opts.pollingIntervalSeconds ?? 1;
  let started: Promise<unknown> | null = null;
  // pg-boss 10 waits a polling interval after every fetch; a worker that just finished a job, or
  // a queue this node just sent to, is woken at once instead (a busy queue drains without pauses).
  const workersOf = new Map<string, string[]>();
  const wake = (name: string) => workersOf.get(name)?.forEach((id) => boss.notifyWorker(id));

  return {
    start(): Promise<unknown> {
      return (started ??= boss.start());
    },
    /** Creates the queue, or brings an existing one to these settings (they may change between releases). */
    async define(q: QueueDefinition) {
      const options = { name: q.name, retryLimit: q.retryLimit ?? 0, retryDelay: q.retryDelaySeconds ?? 10, retryBackoff: true, expireInSeconds: q.expireInSeconds ?? 15 * 60 };
      await boss.createQueue(q.name, options);
      await boss.updateQueue(q.name, options);
    },
    /** Runs jobs of `name` on this node, at most `concurrency` at once, highest priority first. */
    async work(q: QueueDefinition, handler: (job: JobHandlerContext) => Promise<unknown>) {
      const workers = Math.max(1, q.concurrency ?? 1);
      for (let i = 0; i < workers; i++) {
        let self = '';
        self = await boss.work<Record<string, unknown>>(q.name, { batchSize: 1, pollingIntervalSeconds: polling, priority: true, includeMetadata: true }, async ([job]) => {
          try {
            return await handler({ id: job.id, data: job.data ?? {}, signal: stopping.signal, willRetry: job.retryCount < job.retryLimit });
          } finally {
            boss.notifyWorker(self); // fetch the next job now, not after the interval
          }
        });
        workersOf.set(q.name, [...(workersOf.get(q.name) ?? []), self]);
      }
    },
    /** Enqueues a job; a `singletonKey` keeps one such job queued or running at a time. */
    async send(name: string, data: Record<string, unknown> = {}, options: { priority?: number; singletonKey?: string } = {}) {
      const id = await boss.send(name, data, options);
      wake(name);
      return id;
    },
    /** A cron schedule: pg-boss fires it once per tick across every node on the database. */
    every(name: string, cron: string) {
      return boss.schedule(name, cron);
    },
    async stop() {
      stopping.abort();
      if (started) await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
export type JobQueue = ReturnType<typeof createJobQueue>;

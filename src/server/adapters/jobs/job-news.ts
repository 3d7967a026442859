// News of jobs (issue 42): "job <id> changed" (started, progressed, ended, cancelled) and "the line of
// <queue> moved", told to whoever waits for it on this node and, on PostgreSQL, on every node through
// LISTEN/NOTIFY: a long poll re-reads a job's status when it hears of it, not every 250 ms (0072).
// On PGlite there is one node, so the news stays in this process (no statement at all).
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { JobsConnection } from '../../db/client.js';

/** The one channel every node listens on; the payload is the job id or `line:<queue>`. */
export const JOB_NEWS_CHANNEL = 'smt_job_news';
/** How long a lost LISTEN connection waits before it tries again (waiters re-check meanwhile). */
const RECONNECT_MS = 2000;

type Sql = (text: string, values: unknown[]) => Promise<unknown>;

export interface JobNews {
  /** Tells every waiter of `key` (a job id, or lineKey(queue)), here and on the other nodes. */
  tell(key: string): void;
  /** Calls `fn` on news of `key` until the returned function is called. */
  hear(key: string, fn: () => void): () => void;
  /** Listens (PostgreSQL) before the first job runs; idempotent. */
  start(sql: Sql): Promise<void>;
  stop(): Promise<void>;
}

export const lineKey = (queue: string) => `line:${queue}`;

export function createJobNews(connection: JobsConnection, logger: Logger): JobNews {
  const local = new EventEmitter().setMaxListeners(0);
  const url = 'connectionString' in connection ? connection.connectionString : undefined;
  let sql: Sql | undefined;
  let client: { end(): Promise<void> } | undefined;
  let stopped = false;
  let listening = false;
  let retry: NodeJS.Timeout | undefined;

  async function listen(): Promise<void> {
    if (!url || stopped) return;
    const pg = (await import('pg')).default;
    const c = new pg.Client({ connectionString: url });
    const lost = (err?: Error) => {
      if (client !== c) return;
      client = undefined;
      listening = false;
      if (err) logger.warn({ err: err.message }, 'job news connection lost');
      void c.end().catch(() => undefined);
      if (!stopped) retry = setTimeout(() => void listen().catch(() => undefined), RECONNECT_MS);
    };
    c.on('notification', (n) => n.channel === JOB_NEWS_CHANNEL && n.payload && local.emit(n.payload));
    c.on('error', lost);
    c.on('end', () => lost());
    client = c;
    try {
      await c.connect();
      await c.query(`LISTEN ${JOB_NEWS_CHANNEL}`);
      listening = client === c;
    } catch (err) {
      lost(err as Error);
    }
  }

  return {
    tell(key) {
      // On PostgreSQL a listening node hears its own NOTIFY: telling it here as well would wake twice.
      if (!url || !sql || !listening) local.emit(key);
      if (!url || !sql) return;
      sql('SELECT pg_notify($1, $2)', [JOB_NEWS_CHANNEL, key]).catch((err: unknown) => {
        logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'job news not sent');
        if (listening) local.emit(key);
      });
    },
    hear(key, fn) {
      local.on(key, fn);
      return () => void local.off(key, fn);
    },
    async start(s) {
      if (sql) return;
      sql = s;
      await listen();
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}

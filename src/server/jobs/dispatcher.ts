// The catalogue's dispatcher for the kinds on queues of their own (batch items, scheduled turns;
// the media kinds share the media queue, services/media-jobs.service.ts). Names and payloads are
// the catalogue's types, so `send('batch.itm', …)` or a wrong payload does not compile; the queue's
// retry rule, time limit and each job's priority come from the catalogue only; `start` stops with
// one line when a kind has no handler (checkHandlers), on every queue.
import type { JobQueue, QueueDefinition } from '../adapters/jobs/job-queue.js';
import {
  checkHandlers,
  JOB_CATALOGUE,
  type JobKind,
  type JobLimits,
  type JobName,
  type JobOf,
  type JobOrder,
  kindsOn,
  type MediaJobName,
} from './catalogue.js';
import { type Attempt, underRetryRule } from './retry-rule.js';

/** The kinds this dispatcher runs: each on its own queue (or, for schedules, one queue per task). */
export type QueuedJobName = Exclude<JobName, MediaJobName>;

export interface JobRun extends Attempt {
  id: string;
}
export type JobHandler<N extends QueuedJobName> = (payload: JobOf<N>, job: JobRun) => Promise<void>;

export interface SendOrder extends JobOrder {
  /** At most one such job waiting or running (pg-boss's singleton key). */
  singletonKey?: string;
}

/** The queue of a kind, declared from the catalogue: its retry rule, time limit and concurrency. */
export function queueOf(name: JobName, limits: JobLimits, concurrency = 1, queueName?: string): QueueDefinition {
  const kind: JobKind = JOB_CATALOGUE[name];
  return {
    name: queueName ?? kind.queue,
    concurrency,
    retryLimit: kind.retry.retries,
    retryDelaySeconds: kind.retry.backoffSeconds,
    expireInSeconds: kind.timeoutSeconds(limits),
  };
}

interface Registered {
  queues: () => QueueDefinition[];
  run: (data: Record<string, unknown>, job: JobRun) => Promise<unknown>;
}

export function createJobDispatcher(deps: { queue: JobQueue; limits: JobLimits }) {
  const handlers = new Map<QueuedJobName, Registered>();
  return {
    /**
     * Runs `name` on nodes that work jobs, `concurrency` at once; `queues`: the kind's queues when it
     * has several (one per scheduled task, known at start), else the catalogue's.
     */
    register<N extends QueuedJobName>(
      name: N,
      handler: JobHandler<N>,
      opts: {
        concurrency?: number;
        queues?: () => string[];
        /** A failure the retry rule calls final (jobs/retry-rule.ts): the job ends with it, done. */
        ended?: (err: unknown, payload: JobOf<N>) => Promise<void>;
        /** Before a transient failure goes back to the queue for another try. */
        retrying?: (payload: JobOf<N>) => Promise<void>;
      } = {},
    ) {
      const names = opts.queues ?? (() => [JOB_CATALOGUE[name].queue]);
      handlers.set(name, {
        queues: () => names().map((q) => queueOf(name, deps.limits, opts.concurrency, q)),
        // The one retry rule, applied here for every kind; a kind without `ended` fails the job.
        run: (data, job) =>
          underRetryRule(job, () => handler(data as JobOf<N>, job), {
            ended: async (err) => {
              if (!opts.ended) throw err;
              await opts.ended(err, data as JobOf<N>);
            },
            retrying: async () => opts.retrying?.(data as JobOf<N>),
          }),
      });
    },
    /** Enqueues a job of `name` with its payload; its priority from the catalogue and `order`. */
    send<N extends QueuedJobName>(name: N, payload: JobOf<N>, order: SendOrder = {}, queueName?: string) {
      const { singletonKey, ...place } = order;
      return deps.queue.send(queueName ?? JOB_CATALOGUE[name].queue, payload, {
        ...(singletonKey ? { singletonKey } : {}),
        priority: JOB_CATALOGUE[name].priority(place),
      });
    },
    /** Declares every queue (every node sends) and, on nodes that work jobs, runs them. */
    async start(work: boolean) {
      for (const queue of ['batch.item', 'schedule'] as const)
        checkHandlers(
          queue,
          kindsOn(queue),
          [...handlers.keys()].filter((k) => JOB_CATALOGUE[k].queue === queue),
        );
      for (const { queues, run } of handlers.values())
        for (const q of queues()) {
          await deps.queue.define(q);
          if (work) await deps.queue.work(q, ({ id, data, signal, willRetry }) => run(data, { id, signal, willRetry }));
        }
    },
  };
}
export type JobDispatcher = ReturnType<typeof createJobDispatcher>;

// Background work on a schedule (issue 21): trend collectors, billing reconciliation, session
// pruning, media cleanup. Each task is a job queue `schedule.<name>` fired every minute by the
// queue's cron (once per minute across all nodes) and once at start; the handler runs the task
// only when it claims the run (schedule_runs), so it runs once per interval across every node and
// restart, and within a minute of a fresh install. Workers run them; web-only nodes only enqueue.
import type { Logger } from 'pino';
import type { JobQueue } from '../adapters/jobs/job-queue.js';
import type { ScheduleRunsRepository } from '../db/repositories/schedule-runs.repository.js';
import { JOB_CATALOGUE } from '../jobs/catalogue.js';

const TURN = JOB_CATALOGUE.schedule;

export interface ScheduledTask {
  name: string;
  intervalMs: number;
  run(signal: AbortSignal): Promise<unknown>;
}

export function createSchedules(deps: {
  queue: JobQueue;
  runs: ScheduleRunsRepository;
  logger: Logger;
  work: boolean;
  onTurn?: (name: string, ran: boolean) => void;
}) {
  const tasks: ScheduledTask[] = [];
  const watchers = deps.onTurn ? [deps.onTurn] : [];
  const queueName = (task: ScheduledTask) => `schedule.${task.name}`;

  async function turn(task: ScheduledTask, signal: AbortSignal) {
    const claimed = await deps.runs.claim(task.name, task.intervalMs);
    if (claimed) {
      let error: string | null = null;
      try {
        await task.run(signal);
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
        deps.logger.error({ err, task: task.name }, 'scheduled task failed');
      }
      await deps.runs.finish(task.name, error);
    }
    for (const watch of watchers) watch(task.name, claimed);
  }

  return {
    tasks,
    add(task: ScheduledTask) {
      tasks.push(task);
    },
    /** Told after each turn whether it ran or was another node's (tests wait on it, never on time). */
    watch(fn: (name: string, ran: boolean) => void) {
      watchers.push(fn);
    },
    async start() {
      await deps.queue.start();
      for (const task of tasks) {
        // One waiting turn is enough: the queue keeps at most one per task (singleton policy).
        const q = {
          name: queueName(task),
          concurrency: 1,
          retryLimit: TURN.retry.retries,
          expireInSeconds: TURN.timeoutSeconds({ media: 0, batchItem: 0 }),
        };
        await deps.queue.define(q);
        await deps.queue.every(q.name, '* * * * *');
        // The start turn is queued before the worker polls, so it is taken on its first fetch.
        await deps.queue.send(q.name, {}, { singletonKey: 'start' });
        if (deps.work) await deps.queue.work(q, ({ signal }) => turn(task, signal));
      }
    },
    /** Runs a task's turn here and now (tests, the CLI). */
    runNow: (name: string) => {
      const task = tasks.find((t) => t.name === name);
      if (!task) throw new Error(`no scheduled task ${name}`);
      return turn(task, new AbortController().signal);
    },
  };
}
export type Schedules = ReturnType<typeof createSchedules>;

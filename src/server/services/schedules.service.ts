// Background work on a schedule (issue 21): trend collectors, billing reconciliation, session
// pruning, media cleanup. Each task is a job queue `schedule.<name>` fired every minute by the
// queue's cron (once per minute across all nodes) and once at start; the handler runs the task
// only when it claims the run (schedule_runs), so it runs once per interval across every node and
// restart, and within a minute of a fresh install. Workers run them; web-only nodes only enqueue.
import type { Logger } from 'pino';
import type { JobQueue } from '../adapters/jobs/job-queue.js';
import type { ScheduleRunsRepository } from '../db/repositories/schedule-runs.repository.js';
import type { JobDispatcher } from '../jobs/dispatcher.js';

export interface ScheduledTask {
  name: string;
  intervalMs: number;
  run(signal: AbortSignal): Promise<unknown>;
}

export function createSchedules(deps: {
  /** The kind `schedule` (jobs/catalogue.ts), one queue per task. */
  jobs: JobDispatcher;
  /** pg-boss's cron (`every`). */
  queue: JobQueue;
  runs: ScheduleRunsRepository;
  logger: Logger;
  onTurn?: (name: string, ran: boolean) => void;
}) {
  const tasks: ScheduledTask[] = [];
  const watchers = deps.onTurn ? [deps.onTurn] : [];
  // pg-boss 12 allows letters, digits, `_-./` in a queue name: a task's `:` (trends:news) becomes `/`.
  const queueName = (task: string) => `schedule.${task.replaceAll(':', '/')}`;

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

  // Each task's turns on its own queue, run on nodes that work jobs (jobs/dispatcher.ts).
  deps.jobs.register(
    'schedule',
    async ({ task }, { signal }) => {
      const found = tasks.find((t) => t.name === task);
      if (found) await turn(found, signal);
    },
    { queues: () => tasks.map((t) => queueName(t.name)) },
  );

  return {
    tasks,
    add(task: ScheduledTask) {
      tasks.push(task);
    },
    /** Told after each turn whether it ran or was another node's (tests wait on it, never on time). */
    watch(fn: (name: string, ran: boolean) => void) {
      watchers.push(fn);
    },
    /** Fires each task's queue every minute, and once now (after the queues are declared: jobs.start). */
    async start() {
      for (const task of tasks) {
        const name = queueName(task.name);
        await deps.queue.every(name, '* * * * *', { task: task.name });
        // One waiting start turn is enough (singleton key).
        await deps.jobs.send('schedule', { task: task.name }, { singletonKey: 'start' }, name);
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

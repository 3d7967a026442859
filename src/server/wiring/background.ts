// What runs beside the requests: the scheduled tasks (once per interval across all nodes, run by
// nodes that work jobs) and the background tasks started with the server and stopped on close, in
// order (stopped in reverse); `deferred` ones start after the server is ready, without holding it
// (lib/background.ts, decision 0075).
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { runBackground, type BackgroundTask } from '../lib/background.js';
import { createSchedules } from '../services/schedules.service.js';
import type { Services } from '../services/services.js';
import type { TextWork } from '../text-work/pool.js';
import type { Adapters } from './adapters.js';
import type { createMediaServices } from './media.js';
import type { Repositories } from './repositories.js';

export function createBackground(
  config: Config,
  deps: {
    database: Database;
    repos: Repositories;
    adapters: Adapters;
    services: Services;
    media: ReturnType<typeof createMediaServices>;
    textWork: TextWork;
    logger: Logger;
  },
) {
  const { database, repos, adapters, services, media, logger } = deps;
  const { jobQueue, queuesUp } = adapters;
  const schedules = createSchedules({ jobs: media.jobDispatcher, queue: jobQueue, runs: repos.scheduleRuns, logger });
  schedules.add(media.mediaFeature.cleanupTask);
  schedules.add(services.billing.reconciliationTask);
  schedules.add({ name: 'sessions-prune', intervalMs: 3600_000, run: () => repos.sessions.pruneExpired() });
  for (const task of services.trendsCollectors.tasks) schedules.add(task);
  schedules.add(media.batchExpiryTask);
  schedules.add(media.studioCleanupTask);

  const tasks: BackgroundTask[] = [
    {
      name: 'redis',
      start: () => adapters.redisLimits?.ready(5_000),
      stop: async () => adapters.redisLimits?.close(),
    },
    {
      name: 'jobs',
      // On PostgreSQL other nodes may be starting too: pg-boss creating a queue while another node
      // sends to one can deadlock, so there the queue is up before this node answers, as before.
      deferred: database.kind === 'pglite',
      start: async () => {
        const work = config.PROCESS_ROLE !== 'web';
        try {
          // Declared by one node at a time: pg-boss creating queues on several nodes at once deadlocks.
          await database.oneNodeAtATime(async () => {
            await jobQueue.start();
            // Every queue declared (and worked here unless web-only); each kind's handler checked first.
            await media.jobDispatcher.start(work);
            await media.mediaFeature.jobs.start(work);
          });
        } catch (err) {
          queuesUp.fail(err);
          throw err;
        }
        // Jobs sent while the queues were being declared go out now; the schedules send through it.
        queuesUp.open();
        await schedules.start();
      },
      stop: () => jobQueue.stop(),
    },
    {
      // The Whisper model is fetched once the server answers (WHISPER_AUTO_FETCH): the built-in
      // recogniser writes captions until it is there (services/whisper-model.service.ts).
      name: 'whisper-model',
      deferred: true,
      start() {
        void services.whisperModel.ensure();
      },
      stop() {},
    },
    { name: 'http-client', start() {}, stop: () => adapters.http.close() },
    { name: 'text-work', start() {}, stop: () => deps.textWork.close() },
    {
      // Posts stored by an older renderer (or before rendering on save) are rendered once, after the
      // start rather than before it (a read of one not done yet renders it then).
      name: 'blog-html',
      deferred: true,
      start() {
        void services.blog.refreshStale().catch((err: unknown) => {
          logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'blog posts not re-rendered');
        });
      },
      stop() {},
    },
  ];
  return { schedules, background: runBackground(tasks) };
}

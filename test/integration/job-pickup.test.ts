// A job sent on one node is picked up by another node's idle worker at once, woken by the job news
// (LISTEN/NOTIFY), not at its next poll (issue 46: the render's click-to-link). The polling interval
// here is 30 s, so a pick-up within a few seconds can only come from the wake-up.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobQueue, type JobQueue } from '../../src/server/adapters/jobs/job-queue.js';
import { openPostgres, type Database } from '../../src/server/db/client.js';
import { createPostgresDatabase } from '../helpers/test-db.js';

describe('job pick-up across nodes (PostgreSQL)', () => {
  let fresh: { url: string; drop(): Promise<void> };
  const nodes: Array<{ database: Database; queue: JobQueue }> = [];
  const started: Record<string, number> = {};

  beforeAll(async () => {
    fresh = await createPostgresDatabase({ migrated: true });
    for (let i = 0; i < 2; i++) {
      const database = await openPostgres(fresh.url);
      const queue = createJobQueue({
        connection: database.jobs,
        logger: pino({ level: 'silent' }),
        pollingIntervalSeconds: 30,
      });
      await queue.start();
      nodes.push({ database, queue });
    }
    const [, worker] = nodes;
    // One queue worked by the fair worker (media jobs), one by pg-boss's own worker.
    const fair = { name: 'pickup.fair', ownerShare: 1, concurrency: 1 };
    const plain = { name: 'pickup.plain', concurrency: 1 };
    for (const q of [fair, plain]) {
      await nodes[0].queue.define(q);
      await worker.queue.work(q, async ({ data }) => {
        started[String(data.tag)] = Date.now();
      });
    }
    // Both workers have made their first (empty) fetch and now sleep for the polling interval.
    await new Promise((r) => setTimeout(r, 1000));
  });
  afterAll(async () => {
    for (const n of nodes) {
      await n.queue.stop();
      await n.database.close();
    }
    await fresh?.drop();
  });

  it.each(['pickup.fair', 'pickup.plain'])('a job sent to %s on the other node starts within 3 s', async (name) => {
    const sent = Date.now();
    await nodes[0].queue.send(name, { tag: name, owner: 'a' });
    await expect.poll(() => started[name], { timeout: 5000, interval: 20 }).toBeDefined();
    expect(started[name] - sent).toBeLessThan(3000);
  });
});

// Three nodes started at once on one PostgreSQL database all come up (issue 43): on an empty
// database they would all run the migrations (one failed on `CREATE TABLE billing_events`), and on a
// migrated one the start-up work of several nodes once ended in "deadlock detected". Each node
// here is the whole app (context, job queue, schedules, start-up work) with its own pool.
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/server/db/client.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { createPostgresDatabase } from '../helpers/test-db.js';

const NODES = 3;
let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c().catch(() => {});
  cleanup = [];
});

async function startTogether(url: string): Promise<PromiseSettledResult<TestApp>[]> {
  const started = await Promise.allSettled(
    Array.from({ length: NODES }, async () => createTestApp({ database: await openPostgres(url) })),
  );
  for (const s of started) if (s.status === 'fulfilled') cleanup.push(() => s.value.close());
  return started;
}

describe.each([
  ['an empty database', false],
  ['a migrated database', true],
])('three nodes started at once on %s', (_label, migrated) => {
  it('all come up and serve', async () => {
    const db = await createPostgresDatabase({ migrated });
    cleanup.push(() => db.drop());
    const started = await startTogether(db.url);
    const failures = started.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
    expect(failures).toEqual([]);
    for (const s of started) {
      const node = (s as PromiseFulfilledResult<TestApp>).value;
      const health = await fetch(`${node.baseUrl}/api/health`);
      expect(health.status).toBe(200);
    }
    // One node's sign-up is another's sign-in: they share the migrated schema.
    const nodes = started.map((s) => (s as PromiseFulfilledResult<TestApp>).value);
    const user = await nodes[0].signUp();
    const res = await nodes[2]
      .client()
      .post('/api/auth/login', { email: user.email, password: 'correct horse battery' });
    expect(res.status).toBe(200);
  });
});

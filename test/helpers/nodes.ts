// Several app nodes of given roles on one fresh PostgreSQL database, sharing the S3 stand-in as
// their media store (what a deployment of web and worker nodes needs, decision 0022).
import { openPostgres } from '../../src/server/db/client.js';
import { startFakeS3 } from '../fakes/fake-s3.js';
import type { AppContext } from '../../src/server/context.js';
import { createTestApp, type TestApp } from './test-app.js';
import { createPostgresDatabase } from './test-db.js';

export async function startNodes(
  roles: string[],
  env: Record<string, string>,
  /** Runs on each node before it starts (as createTestApp's `configure`). */
  configure?: (ctx: AppContext) => unknown,
): Promise<{ nodes: TestApp[]; add(role: string): Promise<TestApp>; close(): Promise<void> }> {
  const db = await createPostgresDatabase();
  const s3 = await startFakeS3({ bucket: 'smt-media', accessKeyId: 'AKIDTEST' });
  const store = {
    S3_ENDPOINT: s3.url,
    S3_BUCKET: 'smt-media',
    S3_ACCESS_KEY_ID: 'AKIDTEST',
    S3_SECRET_ACCESS_KEY: 'secret-test-key',
  };
  const nodes: TestApp[] = [];
  const add = async (role: string) => {
    const node = await createTestApp({
      database: await openPostgres(db.url),
      env: { ...env, ...store, PROCESS_ROLE: role },
      ...(configure ? { configure } : {}),
    });
    nodes.push(node);
    return node;
  };
  for (const role of roles) await add(role);
  return {
    nodes,
    /** Another node on the same database and store, started now. */
    add,
    async close() {
      for (const n of nodes) await n.close();
      await db.drop();
      await s3.close();
    },
  };
}

// One account runs at most its share of a node's media slots (issue 42): with MEDIA_CONCURRENCY 2
// an account holds one slot at most, so while its jobs hang (an upstream that never finishes), another
// account's audio extraction starts on the other slot and completes; the first account's extra job
// waits in line without holding a slot, and starts when one of its own ends.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { toneMp4 } from '../fakes/media-samples.js';
import { JOB_CATALOGUE } from '../../src/server/jobs/catalogue.js';
import type { MediaJobsOf } from '../../src/server/services/media-jobs.service.js';

const testJobs = (t: TestApp) => t.ctx.services.mediaJobs as unknown as MediaJobsOf<Record<string, { name?: string }>>;

describe.each(DB_KINDS)('media slots per account (%s)', (db) => {
  let tt: FakeTikTok;
  let t: TestApp;
  beforeAll(async () => {
    tt = await startFakeTikTok();
    t = await createTestApp({
      db,
      env: {
        UPSTREAM_HOST_MAP: tt.hostMapJson,
        VIDEO_INFO_PER_MINUTE: '1000',
        MEDIA_CONCURRENCY: '2',
        MEDIA_QUEUE_LIMIT: '10',
      },
      configure: (ctx) => ctx.services.mediaJobs.declare({ hang: JOB_CATALOGUE.audio }),
    });
  });
  afterAll(async () => {
    await t.close();
    await tt.close();
  });

  it("starts another account's job while one account's jobs hang, and the account's extra job when one of its own ends", async () => {
    const started: string[] = [];
    const gates = new Map<string, () => void>();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-hang-'));
    // A job held open like a download from an upstream that never finishes, until its gate opens.
    testJobs(t).register('hang', async (data, job) => {
      const name = data.name ?? '';
      started.push(name);
      await new Promise<void>((resolve) => gates.set(name, resolve));
      const file = path.join(dir, `${name}.txt`);
      fs.writeFileSync(file, name);
      return t.ctx.services.mediaResults.save({
        key: job.key,
        kind: 'hang',
        videoId: null,
        file,
        ext: 'txt',
        contentType: 'text/plain',
        size: name.length,
        meta: {},
      });
    });
    const a = await t.signUp();
    const b = await t.signUp({ pro: true });
    const tag = Date.now();
    // A's jobs go first in line (a higher place than any plan's), so B's starts only if the line skips A's extra one.
    const hang = (name: string) =>
      testJobs(t).run({
        kind: 'hang',
        key: `hang:${tag}:${name}`,
        data: { name },
        owner: { owner: a.userId, plan: 3 },
      });
    const first = hang('a1');
    await expect.poll(() => started, { timeout: 10_000 }).toEqual(['a1']);
    const second = hang('a2');
    await expect.poll(() => t.ctx.services.mediaJobs.waiting(`hang:${tag}:a2`), { timeout: 10_000 }).toBe(1);

    // B's audio extraction gets the slot A does not hold.
    const v = tt.addVideo({ media: { file: toneMp4(2) }, duration: 2 });
    const asked = Date.now();
    const extraction = b.post('/api/audio/extract', { url: v.url });
    await expect.poll(() => tt.transfers.some((x) => x.path.includes(`/${v.id}/`)), { timeout: 10_000 }).toBe(true);
    const startedAfterMs = Date.now() - asked;
    const res = await extraction;
    expect(res.status).toBe(200);
    expect((await res.json()).audioUrl).toMatch(/^\/api\/media\/audio\//);
    // A's second job never took a slot meanwhile: it waits for one of A's own.
    expect(started).toEqual(['a1']);
    expect(startedAfterMs).toBeLessThan(10_000);

    gates.get('a1')?.();
    await first;
    await expect.poll(() => started, { timeout: 10_000 }).toEqual(['a1', 'a2']);
    await expect.poll(() => gates.has('a2'), { timeout: 10_000 }).toBe(true);
    gates.get('a2')?.();
    expect(await second).toMatchObject({ kind: 'hang' });
  });
});

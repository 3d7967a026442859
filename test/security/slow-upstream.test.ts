// A site that sends slowly may not hold a media slot (issue 42, finding 4): a Bluesky PDS sending a
// blob in small pieces, never silent long enough for the idle timeout, kept a preview's slot for
// the whole media timeout. The guarded client now cuts a transfer below UPSTREAM_MIN_KBPS over an
// UPSTREAM_STALL_SECONDS window (here 16 KB/s over 1 s): the preview fails as upstream.timeout, the
// PDS sees its connection closed, and the one media slot runs the next job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeBluesky, type FakeBluesky } from '../fakes/bluesky/fake-bluesky.js';
import { toneMp4 } from '../fakes/media-samples.js';

describe.each(DB_KINDS)('a site sending slowly (%s)', (db) => {
  let bs: FakeBluesky;
  let t: TestApp;
  beforeAll(async () => {
    bs = await startFakeBluesky();
    t = await createTestApp({
      db,
      env: {
        UPSTREAM_HOST_MAP: bs.hostMapJson,
        MEDIA_CONCURRENCY: '1',
        UPSTREAM_MIN_KBPS: '16',
        UPSTREAM_STALL_SECONDS: '1',
      },
    });
  });
  afterAll(async () => {
    bs.state.blobTrickle = null;
    await Promise.all([bs.close(), t.close()]);
  });
  /** The preview link the card gets, keyed for this person (decision 0082). */
  const previewOf = async (c: TestClient, p: { url: string }) =>
    ((await (await c.post('/api/video/info', { url: p.url })).json()) as { videoUrl: string }).videoUrl;

  it('cuts a preview whose PDS trickles, closes the transfer, and frees the media slot', async () => {
    const slow = bs.addVideoPost({ file: toneMp4(20) });
    const next = bs.addVideoPost({ file: toneMp4(3, { faststart: true }) });
    // 512 bytes every 100 ms: about 5 KB/s, and never 30 s of silence.
    bs.state.blobTrickle = { bytes: 512, everyMs: 100 };
    const c = await t.signUp();
    const res = await c.get(await previewOf(c, slow));
    const body = await res.json();
    expect([res.status, body.code, body.message]).toEqual([
      424,
      'upstream.timeout',
      'The site sent the file too slowly.',
    ]);
    await expect.poll(() => bs.state.trickling, { timeout: 10_000 }).toBe(0);
    bs.state.blobTrickle = null;
    // The only media slot is free: the next preview job runs.
    const other = await c.get(await previewOf(c, next));
    expect(other.status).toBe(302);
    expect(other.headers.get('location')).toMatch(/^\/api\/media\/preview\//);
  });
});

// Batch downloads (issue 21, Pro): bad and duplicate links reported per item, each good item fetched
// by a worker from the job queue and kept in the media store, one ZIP of every finished file;
// only the owner sees a batch. On PostgreSQL a batch made on one web node is seen on another and
// finished by a separate worker node.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startNodes } from '../helpers/nodes.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { zipEntries } from '../helpers/zip.js';

describe.each(DB_KINDS)('batch downloads (%s)', (db) => {
  let tt: FakeTikTok;
  let t: TestApp;
  beforeAll(async () => {
    tt = await startFakeTikTok();
    t = await createTestApp({ db, env: { UPSTREAM_HOST_MAP: tt.hostMapJson, VIDEO_INFO_PER_MINUTE: '1000' } });
  });
  afterAll(async () => {
    await t.close();
    await tt.close();
  });

  it('is Pro only', async () => {
    const free = await t.signUp();
    const res = await free.post('/api/batch', { urls: [tt.addVideo().url] });
    expect([res.status, (await res.json()).code]).toEqual([403, 'billing.pro_required']);
  });

  it('fetches each good link once, reports bad ones per item, and zips every finished file', async () => {
    const pro = await t.signUp({ pro: true });
    const [a, b] = [tt.addVideo(), tt.addVideo()];
    const gone = tt.addError('private');
    const created = await pro.post('/api/batch', {
      urls: [a.url, b.url, 'https://example.com/not-tiktok', `${a.url}?is_from_webapp=1`, gone],
    });
    expect(created.status).toBe(202);
    const { id, items } = await created.json();
    expect(items.map((i: { status: string; error?: { code: string } }) => [i.status, i.error?.code])).toEqual([
      ['queued', undefined],
      ['queued', undefined],
      ['failed', 'link.unsupported'],
      ['failed', 'batch.duplicate'],
      ['queued', undefined],
    ]);
    const view = async () => (await pro.get(`/api/batch/${id}`)).json();
    await expect.poll(async () => (await view()).status, { timeout: 30_000 }).toBe('partial');
    const done = await view();
    expect(done.items.map((i: { status: string }) => i.status)).toEqual(['done', 'done', 'failed', 'failed', 'failed']);
    expect(done.items[0].title).toBe(a.item.desc);
    expect(done.items[4].error.code).toBe('video.private');
    expect((await (await pro.get('/api/batch')).json())[0]).toMatchObject({
      id,
      status: 'partial',
      total: 5,
      done: 2,
      failed: 3,
    });

    const zip = await fetch(t.baseUrl + done.downloadUrl);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.length).toBe(Number(zip.headers.get('content-length')));
    const entries = await zipEntries(bytes);
    expect(entries.map((e) => e.name)).toEqual([`tiktok-fakecreator-${a.id}.mp4`, `tiktok-fakecreator-${b.id}.mp4`]);
    for (const e of entries) expect(e.bytes.equals(fs.readFileSync(tt.sampleMp4))).toBe(true);
    // A forged or altered link is refused.
    expect((await fetch(t.baseUrl + done.downloadUrl.replace(/sig=[\w-]+/, `sig=${'A'.repeat(43)}`))).status).toBe(403);

    // Only its owner sees it; retrying requeues the failed item whose link was valid.
    const other = await t.signUp({ pro: true });
    expect((await other.get(`/api/batch/${id}`)).status).toBe(404);
    const retried = await (await pro.post(`/api/batch/${id}/retry`, {})).json();
    expect(retried.items.map((i: { status: string }) => i.status)).toEqual([
      'done',
      'done',
      'failed',
      'failed',
      'queued',
    ]);
    await expect.poll(async () => (await view()).items[4].status, { timeout: 30_000 }).toBe('failed');
  });

  it('refuses an empty batch and one over 50 links', async () => {
    const pro = await t.signUp({ pro: true });
    expect((await pro.post('/api/batch', { urls: [] })).status).toBe(400);
    expect((await pro.post('/api/batch', { urls: Array.from({ length: 51 }, () => tt.addVideo().url) })).status).toBe(
      400,
    );
  });
});

describe('batch across nodes: two web nodes and a worker on one PostgreSQL', () => {
  let tt: FakeTikTok;
  let cluster: Awaited<ReturnType<typeof startNodes>>;
  let nodes: TestApp[];
  beforeAll(async () => {
    tt = await startFakeTikTok();
    // One media store for all nodes: the S3 stand-in.
    cluster = await startNodes(['web', 'web', 'worker'], { UPSTREAM_HOST_MAP: tt.hostMapJson });
    nodes = cluster.nodes;
  });
  afterAll(async () => {
    await cluster?.close();
    await tt?.close();
  });

  it('is made on node A, seen on node B, finished by the worker, and its ZIP served by either', async () => {
    const [a, b] = nodes;
    const user = await a.signUp({ pro: true });
    const v = tt.addVideo();
    const { id } = await (await user.post('/api/batch', { urls: [v.url] })).json();
    const onB = b.client();
    onB.cookies = user.cookies;
    await expect
      .poll(async () => (await (await onB.get(`/api/batch/${id}`)).json()).status, { timeout: 30_000 })
      .toBe('done');
    const { downloadUrl } = await (await onB.get(`/api/batch/${id}`)).json();
    const entries = await zipEntries(Buffer.from(await (await fetch(a.baseUrl + downloadUrl)).arrayBuffer()));
    expect(entries.map((e) => e.name)).toEqual([`tiktok-fakecreator-${v.id}.mp4`]);
  });
});

describe('batch fair share', () => {
  let tt: FakeTikTok;
  let t: TestApp;
  beforeAll(async () => {
    tt = await startFakeTikTok();
    // One item at a time, so the order the queue hands items out is the order they finish in.
    t = await createTestApp({
      env: { UPSTREAM_HOST_MAP: tt.hostMapJson, VIDEO_INFO_PER_MINUTE: '1000', MEDIA_CONCURRENCY: '1' },
    });
  });
  afterAll(async () => {
    await t.close();
    await tt.close();
  });

  it("takes a second user's first item before the tail of a first user's long batch", async () => {
    const [a, b] = [await t.signUp({ pro: true }), await t.signUp({ pro: true })];
    const slow = () => tt.addVideo({ bytesPerSecond: 150_000 }); // about a second per item
    const first = await (await a.post('/api/batch', { urls: Array.from({ length: 5 }, () => slow().url) })).json();
    const second = await (await b.post('/api/batch', { urls: [slow().url] })).json();
    const view = async (c: typeof a, id: string) => (await c.get(`/api/batch/${id}`)).json();
    await expect.poll(async () => (await view(b, second.id)).status, { timeout: 60_000 }).toBe('done');
    const waitingOfFirst = (await view(a, first.id)).items.filter(
      (i: { status: string }) => i.status === 'queued',
    ).length;
    expect(waitingOfFirst).toBeGreaterThanOrEqual(2); // b did not wait for all five of a's
    await expect.poll(async () => (await view(a, first.id)).status, { timeout: 60_000 }).toBe('done');
  });

  it("makes a photo post's slideshow in a batch with a single media worker (no job waits for a slot it holds)", async () => {
    const pro = await t.signUp({ pro: true });
    const photo = tt.addPhotoPost();
    const { id } = await (await pro.post('/api/batch', { urls: [photo.url, tt.addVideo().url] })).json();
    await expect
      .poll(async () => (await (await pro.get(`/api/batch/${id}`)).json()).status, { timeout: 60_000 })
      .toBe('done');
    const { downloadUrl } = await (await pro.get(`/api/batch/${id}`)).json();
    const entries = await zipEntries(Buffer.from(await (await fetch(t.baseUrl + downloadUrl)).arrayBuffer()));
    expect(entries.map((e) => e.name)[0]).toBe(`tiktok-fakephotographer-${photo.id}-slideshow.mp4`);
    expect(entries).toHaveLength(2);
  });
});

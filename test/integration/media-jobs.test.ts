// Media work as queue jobs (issue 21): a client that asks not to wait gets the job's place in line
// and follows it to done; Pro's jobs run before free users' and owners take turns; a request waits
// up to MEDIA_WAIT_SECONDS while the job goes on; on PostgreSQL a web node's job is run by a
// worker node, and stops there when the only waiting request leaves.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fail } from '../../src/server/errors.js';
import type { AppContext } from '../../src/server/context.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startNodes } from '../helpers/nodes.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { JOB_CATALOGUE, type JobKind } from '../../src/server/jobs/catalogue.js';
import type { MediaJobsOf } from '../../src/server/services/media-jobs.service.js';
import { createPlatformMediaSource } from '../../src/server/services/platform-media-source.js';
import type { MediaSource } from '../../src/server/services/media-source.js';
import { mutedMp4, toneMp4 } from '../fakes/media-samples.js';

const async = { prefer: 'respond-async' };
/** The media job kinds these tests run, declared like the catalogue's audio kind. */
const madeUpKinds = (...names: string[]): Record<string, JobKind> =>
  Object.fromEntries(names.map((n) => [n, JOB_CATALOGUE.audio]));
/** Declares them on the app's media queue before it starts. */
const declaring = (kinds: Record<string, JobKind>) => (ctx: AppContext) => ctx.services.mediaJobs.declare(kinds);
/** The media dispatcher typed for these made-up kinds (the product's is typed by the catalogue). */
const testJobs = (t: TestApp) => t.ctx.services.mediaJobs as unknown as MediaJobsOf<Record<string, { name?: string }>>;
const transfersOf = (tt: FakeTikTok, id: string) => tt.transfers.filter((x) => x.path.includes(`/${id}/`));
/** A video whose download takes a few seconds (it holds the one media worker meanwhile). */
const slowVideo = (tt: FakeTikTok) =>
  tt.addVideo({ media: { file: toneMp4(20) }, duration: 20, bytesPerSecond: 150_000 });

describe.each(DB_KINDS)('media jobs (%s)', (db) => {
  let tt: FakeTikTok;
  let t: TestApp;
  beforeAll(async () => {
    tt = await startFakeTikTok();
    t = await createTestApp({
      db,
      env: {
        UPSTREAM_HOST_MAP: tt.hostMapJson,
        VIDEO_INFO_PER_MINUTE: '1000',
        MEDIA_CONCURRENCY: '1',
        MEDIA_QUEUE_LIMIT: '10',
      },
      configure: declaring(madeUpKinds('probe')),
    });
  });
  afterAll(async () => {
    await t.close();
    await tt.close();
  });

  it('answers 202 with the place in line when asked not to wait, follows the job to done, then serves the kept result', async () => {
    const [a, b] = [await t.signUp({ pro: true }), await t.signUp({ pro: true })];
    const slow = slowVideo(tt);
    const first = a.post('/api/audio/extract', { url: slow.url });
    await expect.poll(() => transfersOf(tt, slow.id).length, { timeout: 10_000 }).toBe(1);

    const other = tt.addVideo({ media: { file: toneMp4(3) }, duration: 3 });
    const res = await b.post('/api/audio/extract', { url: other.url }, async);
    expect(res.status).toBe(202);
    const job = await res.json();
    expect(job).toMatchObject({ state: 'queued', position: 1 });
    expect(job.id).toMatch(/^[0-9a-f-]{36}$/);
    const seen: string[] = [];
    await expect
      .poll(
        async () => {
          const s = await (await b.get(`/api/media-jobs/${job.id}`)).json();
          if (seen.at(-1) !== s.state) seen.push(s.state);
          return s.state;
        },
        { timeout: 30_000, interval: 50 },
      )
      .toBe('done');
    expect(seen[0]).toBe('queued');
    expect((await first).status).toBe(200);

    const sent = transfersOf(tt, other.id).length;
    const kept = await b.post('/api/audio/extract', { url: other.url }, async);
    expect(kept.status).toBe(200);
    expect((await kept.json()).audioUrl).toMatch(/^\/api\/media\/audio\//);
    expect(transfersOf(tt, other.id).length).toBe(sent);
  });

  it('refuses unknown and malformed job ids, and anyone signed out', async () => {
    const pro = await t.signUp({ pro: true });
    const unknown = await pro.get('/api/media-jobs/00000000-0000-4000-8000-000000000000');
    expect([unknown.status, (await unknown.json()).code]).toEqual([404, 'media.job_not_found']);
    expect((await pro.get('/api/media-jobs/not-a-job')).status).toBe(400);
    // A free account follows its own jobs (a repost kit, issue 47); someone else's is unknown to it.
    const free = await t.signUp();
    expect((await free.get('/api/media-jobs/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await t.client().get('/api/media-jobs/00000000-0000-4000-8000-000000000000')).status).toBe(401);
  });

  it("runs Pro's jobs before free users' and lets owners take turns", async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-probe-'));
    testJobs(t).register('probe', async (data, job) => {
      const name = data.name ?? '';
      order.push(name);
      if (name === 'blocker') await gate;
      const file = path.join(dir, `${name}.txt`);
      fs.writeFileSync(file, name);
      return t.ctx.services.mediaResults.save({
        key: job.key,
        kind: 'probe',
        videoId: null,
        file,
        ext: 'txt',
        contentType: 'text/plain',
        size: name.length,
        meta: {},
      });
    });
    const tag = Date.now();
    const run = (name: string, owner: string, priority: number) =>
      testJobs(t).run({ kind: 'probe', key: `probe:${tag}:${name}`, data: { name }, owner: { owner, plan: priority } });
    const blocker = run('blocker', 'x', 2);
    await expect.poll(() => order, { timeout: 10_000 }).toEqual(['blocker']);
    const names = [
      ['free-1', 'f', 1],
      ['free-2', 'f', 1],
      ['pro-p1', 'p', 2],
      ['pro-p2', 'p', 2],
      ['pro-q1', 'q', 2],
    ] as const;
    const rest = [];
    // One after another (requests at the same moment have no order): each is in line before the next.
    for (const [name, owner, priority] of names) {
      rest.push(run(name, owner, priority));
      await expect.poll(() => t.ctx.services.mediaJobs.waiting(`probe:${tag}:${name}`), { timeout: 10_000 }).toBe(1);
    }
    release();
    await Promise.all([blocker, ...rest]);
    expect(order).toEqual(['blocker', 'pro-p1', 'pro-q1', 'pro-p2', 'free-1', 'free-2']);
  });
});

describe('media jobs: a job that ends in a refusal', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ configure: declaring(madeUpKinds('refusal')) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('reports it as failed with the catalogue code, text and params', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    testJobs(t).register('refusal', async () => {
      await gate;
      throw fail('media.no_audio', { variant: 'transcribe' });
    });
    const pending = await testJobs(t).run({ kind: 'refusal', key: `refusal:${Date.now()}`, data: {} }, undefined, {
      respondAsync: true,
    });
    expect(pending).toMatchObject({ state: 'running' });
    release();
    if (!('state' in pending)) throw new Error('the job ended before its gate opened');
    const id = pending.id;
    await expect
      .poll(async () => (await t.ctx.services.mediaJobs.status(id)).state, { timeout: 10_000 })
      .toBe('failed');
    expect((await t.ctx.services.mediaJobs.status(id)).error).toEqual({
      code: 'media.no_audio',
      message: 'This video has no sound to transcribe.',
      params: { variant: 'transcribe' },
    });
  });
});

describe('media jobs: transient failures are retried, final ones are not', () => {
  const codes = ['upstream.unavailable', 'upstream.timeout', 'upstream.rate_limited'] as const;
  let t: TestApp;
  beforeAll(async () => {
    const kinds = madeUpKinds('final-answer', ...codes.map((c) => `flaky-${c}`));
    t = await createTestApp({ configure: declaring(kinds) });
  });
  afterAll(async () => {
    await t.close();
  });

  const probe = (key: string, data: Record<string, unknown>) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-retry-'));
    const file = path.join(dir, 'ok.txt');
    fs.writeFileSync(file, 'ok');
    return t.ctx.services.mediaResults.save({
      key,
      kind: 'probe',
      videoId: null,
      file,
      ext: 'txt',
      contentType: 'text/plain',
      size: 2,
      meta: data,
    });
  };

  // upstream.unavailable and upstream.timeout are 424 in the catalogue: the platform's trouble, worth another try.
  it.each(codes)(
    "retries a job that failed with %s, and the request gets the second attempt's result",
    async (code) => {
      const kind = `flaky-${code}`;
      let attempts = 0;
      testJobs(t).register(kind, async (_data, job) => {
        attempts++;
        if (attempts === 1) throw fail(code, { platform: 'Clips' });
        return probe(job.key, {});
      });
      const row = await testJobs(t).run({ kind, key: `${kind}:${Date.now()}`, data: {} });
      expect(attempts).toBe(2);
      expect(row).toMatchObject({ kind: 'probe', size: 2 });
    },
  );

  it('does not retry an answer about the link', async () => {
    let attempts = 0;
    testJobs(t).register('final-answer', async () => {
      attempts++;
      throw fail('video.not_found', { platform: 'Clips' });
    });
    await expect(testJobs(t).run({ kind: 'final-answer', key: `final:${Date.now()}`, data: {} })).rejects.toMatchObject(
      { code: 'video.not_found' },
    );
    expect(attempts).toBe(1);
  });
});

describe('media jobs: only those who asked for a job can follow it', () => {
  let tt: FakeTikTok;
  let t: TestApp;
  beforeAll(async () => {
    tt = await startFakeTikTok();
    t = await createTestApp({ env: { UPSTREAM_HOST_MAP: tt.hostMapJson, MEDIA_CONCURRENCY: '1' } });
  });
  afterAll(async () => {
    await t.close();
    await tt.close();
  });

  it('answers each requester of a shared job, and anyone else 404 like an unknown id', async () => {
    const [a, b, stranger] = [
      await t.signUp({ pro: true }),
      await t.signUp({ pro: true }),
      await t.signUp({ pro: true }),
    ];
    const v = slowVideo(tt);
    const first = await a.post('/api/audio/extract', { url: v.url }, async);
    expect(first.status).toBe(202);
    const { id } = await first.json();
    const second = await b.post('/api/audio/extract', { url: v.url }, async);
    expect(second.status).toBe(202);
    expect((await second.json()).id).toBe(id);

    expect((await a.get(`/api/media-jobs/${id}`)).status).toBe(200);
    expect((await b.get(`/api/media-jobs/${id}`)).status).toBe(200);
    const other = await stranger.get(`/api/media-jobs/${id}`);
    expect([other.status, (await other.json()).code]).toEqual([404, 'media.job_not_found']);
  });
});

describe('media jobs: one lookup per job', () => {
  let tt: FakeTikTok;
  let t: TestApp;
  let lookups = 0;
  beforeAll(async () => {
    tt = await startFakeTikTok();
    // The platforms' media source, counting every lookup (cached or not) made by the request and the job.
    let real: MediaSource | undefined;
    const counting: MediaSource = {
      recognises: (url) => real?.recognises(url) ?? false,
      platformNames: () => real?.platformNames() ?? [],
      lookup: (url, signal) => {
        lookups++;
        return (real as MediaSource).lookup(url, signal);
      },
      openAudioSource: (...a) => (real as MediaSource).openAudioSource(...a),
      fetchText: (...a) => (real as MediaSource).fetchText(...a),
    };
    t = await createTestApp({ env: { UPSTREAM_HOST_MAP: tt.hostMapJson }, overrides: { mediaSource: counting } });
    real = createPlatformMediaSource(() => t.ctx.services.video);
  });
  afterAll(async () => {
    await t.close();
    await tt.close();
  });

  it("looks the video up once for an audio extraction: the job uses the request's lookup", async () => {
    const pro = await t.signUp({ pro: true });
    const v = tt.addVideo({ media: { file: toneMp4(2) }, duration: 2 });
    lookups = 0;
    const res = await pro.post('/api/audio/extract', { url: v.url });
    expect(res.status).toBe(200);
    expect(lookups).toBe(1);
  });
});

describe('media jobs: a request waits up to MEDIA_WAIT_SECONDS', () => {
  let tt: FakeTikTok;
  let t: TestApp;
  beforeAll(async () => {
    tt = await startFakeTikTok();
    t = await createTestApp({ env: { UPSTREAM_HOST_MAP: tt.hostMapJson, MEDIA_WAIT_SECONDS: '1' } });
  });
  afterAll(async () => {
    await t.close();
    await tt.close();
  });

  it('answers media.busy with Retry-After while the job goes on, and the kept result next time', async () => {
    const pro = await t.signUp({ pro: true });
    const v = slowVideo(tt);
    const res = await pro.post('/api/audio/extract', { url: v.url });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await res.json()).code).toBe('media.busy');
    await expect
      .poll(async () => !!(await t.ctx.repos.mediaResults.findFresh(`audio:${v.id}`)), { timeout: 30_000 })
      .toBe(true);
    const again = await pro.post('/api/audio/extract', { url: v.url });
    expect(again.status).toBe(200);
    expect(transfersOf(tt, v.id)).toHaveLength(1);
  });
});

describe('media jobs across nodes: a web node and a worker on one PostgreSQL', () => {
  let tt: FakeTikTok;
  let cluster: Awaited<ReturnType<typeof startNodes>>;
  let nodes: TestApp[];
  beforeAll(async () => {
    tt = await startFakeTikTok();
    // One media store for all nodes: the S3 stand-in.
    cluster = await startNodes(['web', 'worker'], { UPSTREAM_HOST_MAP: tt.hostMapJson });
    nodes = cluster.nodes;
  });
  afterAll(async () => {
    await cluster?.close();
    await tt?.close();
  });

  it('extracts on the worker for a request made on the web node', async () => {
    const pro = await nodes[0].signUp({ pro: true });
    const v = tt.addVideo({ media: { file: toneMp4(3) }, duration: 3 });
    const res = await pro.post('/api/audio/extract', { url: v.url });
    expect(res.status).toBe(200);
    const { audioUrl } = await res.json();
    // The file the worker stored, served by the web node.
    const mp3 = await fetch(nodes[0].baseUrl + audioUrl);
    expect(mp3.status).toBe(200);
    expect((await mp3.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
  });

  it("answers the worker's refusal on the web node as if it were its own", async () => {
    const pro = await nodes[0].signUp({ pro: true });
    const v = tt.addVideo({ media: { file: mutedMp4(2) } });
    const res = await pro.post('/api/audio/extract', { url: v.url });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ code: 'media.no_audio', message: 'This video has no sound to extract.' });
  });

  it("stops the worker's job when the only request waiting for it leaves", async () => {
    const pro = await nodes[0].signUp({ pro: true });
    const v = slowVideo(tt);
    const ac = new AbortController();
    const cookie = [...pro.cookies].map(([k, val]) => `${k}=${val}`).join('; ');
    const pending = fetch(`${nodes[0].baseUrl}/api/audio/extract`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: nodes[0].baseUrl, cookie },
      body: JSON.stringify({ url: v.url }),
      signal: ac.signal,
    }).catch((e: unknown) => e);
    await expect.poll(() => transfersOf(tt, v.id).length, { timeout: 10_000 }).toBe(1);
    ac.abort();
    expect(await pending).toBeInstanceOf(Error);
    // The worker sees the cancellation within a poll and stops its CDN transfer, long before it would end.
    await expect.poll(() => transfersOf(tt, v.id)[0].aborted, { timeout: 5_000 }).toBe(true);
    expect(transfersOf(tt, v.id)[0].completed).toBe(false);
    expect(await nodes[0].ctx.repos.mediaResults.findFresh(`audio:${v.id}`)).toBeUndefined();
  });
});

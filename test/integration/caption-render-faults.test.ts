// A caption render's Cancel and our own faults (issue 29): the owner cancels a running render (the
// ffmpeg run stops, nothing is kept, a new render works), nobody else can; ffmpeg killed under a
// render is a 503 media.interrupted, not "unreadable video". ffmpeg is Debian's behind a small
// wrapper that, for the burn-in only, waits or kills itself as the test says.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { FFMPEG, toneMp4 } from '../fakes/media-samples.js';
import type { CaptionProject } from '../../src/shared/contracts/caption-studio.js';
import { buildAss } from '../../src/shared/caption-ass.js';
import { renderKey } from '../../src/server/services/caption-studio/caption-projects.service.js';
import { type MediaJobView, mediaJobToken } from '../../src/shared/contracts/media-jobs.js';

const VTT = 'WEBVTT\n\n00:00:00.200 --> 00:00:01.800\nhello there\n';

describe('caption render: cancel and faults', () => {
  let tt: FakeTikTok;
  let t: TestApp;
  let pro: Awaited<ReturnType<TestApp['signUp']>>;
  let project: CaptionProject;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-faults-'));
  const mode = path.join(dir, 'mode');
  const started = path.join(dir, 'started');
  const wrapper = path.join(dir, 'ffmpeg');
  const gate = path.join(dir, 'go');

  beforeAll(async () => {
    fs.writeFileSync(
      wrapper,
      `#!/bin/sh
case "$*" in *ass=filename*)
  touch '${started}'
  case "$(cat '${mode}')" in
    slow) sleep 60 ;;
    gate) while [ ! -f '${gate}' ]; do sleep 0.05; done ;;
    kill) kill -9 $$ ;;
  esac ;;
esac
exec '${FFMPEG}' "$@"
`,
      { mode: 0o755 },
    );
    fs.writeFileSync(mode, 'pass');
    tt = await startFakeTikTok();
    t = await createTestApp({ env: { UPSTREAM_HOST_MAP: tt.hostMapJson, FFMPEG_PATH: wrapper } });
    pro = await t.signUp({ pro: true });
    const v = tt.addVideo({
      subtitles: [{ lang: 'eng-US', vtt: VTT }],
      media: { file: toneMp4(2, { faststart: true }) },
    });
    project = await (await pro.post('/api/caption-projects', { source: { kind: 'link', url: v.url } })).json();
  });
  afterAll(async () => {
    await t.close();
    await tt.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lets the owner cancel a running render, and nobody else; a new render then works', async () => {
    fs.writeFileSync(mode, 'slow');
    const res = await pro.post(`/api/caption-projects/${project.id}/render`, undefined, { prefer: 'respond-async' });
    expect(res.status).toBe(202);
    const job = await res.json();
    await expect.poll(() => fs.existsSync(started), { timeout: 20_000, interval: 50 }).toBe(true);
    const running = await (await pro.get(`/api/media-jobs/${job.id}`)).json();
    expect(running).toMatchObject({ state: 'running', progress: 0 });

    const other = await t.signUp({ pro: true });
    const theirs = await other.request('DELETE', `/api/media-jobs/${job.id}`);
    expect(theirs.status).toBe(404);
    const cancelled = await pro.request('DELETE', `/api/media-jobs/${job.id}`);
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ state: 'failed', error: { code: 'media.interrupted' } });
    // The wrapper (and the ffmpeg it would run) is stopped: no result appears.
    const key = renderKey(project.id, buildAss(project));
    await new Promise((r) => setTimeout(r, 1500));
    expect(await t.ctx.repos.mediaResults.findAny(key)).toBeUndefined();
    expect((await (await pro.get(`/api/media-jobs/${job.id}`)).json()).state).toBe('failed');

    fs.writeFileSync(mode, 'pass');
    const again = await pro.post(`/api/caption-projects/${project.id}/render`);
    expect(again.status).toBe(200);
    expect(Number((await again.json()).size)).toBeGreaterThan(1000);
    expect(await t.ctx.repos.mediaResults.findAny(key)).toBeDefined();
  }, 90_000);

  it('a long poll of the status answers once the render moves on, and the done status carries its link', async () => {
    fs.writeFileSync(mode, 'gate');
    fs.rmSync(started, { force: true });
    const lines = [{ id: 'g', words: [{ text: 'gated', start: 0.2, end: 1.5 }] }];
    const url = `/api/caption-projects/${project.id}`;
    const fresh = await (await pro.get(url)).json();
    expect((await pro.request('PUT', url, { revision: fresh.revision, lines, style: fresh.style })).status).toBe(200);
    const res = await pro.post(`${url}/render`, undefined, { prefer: 'respond-async' });
    expect(res.status).toBe(202);
    let job = (await res.json()) as MediaJobView;
    await expect.poll(() => fs.existsSync(started), { timeout: 20_000, interval: 50 }).toBe(true);
    job = await (await pro.get(`/api/media-jobs/${job.id}`)).json();
    // Held while ffmpeg waits at the gate: it answers only once the job is no longer as last seen.
    const seen = mediaJobToken(job);
    const held = pro.get(`/api/media-jobs/${job.id}?wait=20000&seen=${encodeURIComponent(seen)}`);
    fs.writeFileSync(gate, '');
    job = await (await held).json();
    expect(mediaJobToken(job)).not.toBe(seen);
    while (job.state !== 'done' && job.state !== 'failed')
      job = await (
        await pro.get(`/api/media-jobs/${job.id}?wait=20000&seen=${encodeURIComponent(mediaJobToken(job))}`)
      ).json();
    expect(job.state).toBe('done');
    // The link comes with the status: no second render request.
    expect(job.result).toMatchObject({
      url: expect.stringMatching(/^\/api\/media\//),
      size: expect.stringMatching(/^\d+$/),
    });
    const file = await pro.get(job.result?.url as string);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    expect(Number(file.headers.get('content-length'))).toBe(Number(job.result?.size));
    fs.writeFileSync(mode, 'pass');
  }, 60_000);

  it('answers 503 media.interrupted when ffmpeg is killed under a render', async () => {
    fs.writeFileSync(mode, 'kill');
    // New captions: a new render.
    const lines = [{ id: 'x', words: [{ text: 'killed', start: 0.2, end: 1.5 }] }];
    const url = `/api/caption-projects/${project.id}`;
    const fresh = await (await pro.get(url)).json();
    expect((await pro.request('PUT', url, { revision: fresh.revision, lines, style: fresh.style })).status).toBe(200);
    const res = await pro.post(`${url}/render`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'media.interrupted' });
  }, 60_000);
});

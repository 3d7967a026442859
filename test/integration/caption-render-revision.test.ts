// A render renders the revision it was asked for (issue 36). The render's key hashes the captions
// at request time; a job that waits, then runs on another node, must not render a later autosave
// under that key. Here a web node enqueues the render, the project is saved again, and only then a
// worker starts: the job answers studio.render_outdated and nothing is stored under the old key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptionProject } from '../../src/shared/contracts/caption-studio.js';
import { buildAss } from '../../src/shared/caption-ass.js';
import { renderKey } from '../../src/server/services/caption-studio/caption-projects.service.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { toneMp4 } from '../fakes/media-samples.js';
import { startNodes } from '../helpers/nodes.js';
import type { TestApp } from '../helpers/test-app.js';

const VTT = 'WEBVTT\n\n00:00:00.200 --> 00:00:01.800\nhello there\n';

describe('caption render: the revision asked for', () => {
  let tt: FakeTikTok;
  let cluster: Awaited<ReturnType<typeof startNodes>>;
  let web: TestApp;
  let pro: Awaited<ReturnType<TestApp['signUp']>>;
  let project: CaptionProject;

  beforeAll(async () => {
    tt = await startFakeTikTok();
    // One node that works jobs opens the project (its transcript and source are media jobs too).
    cluster = await startNodes(['web', 'worker'], { UPSTREAM_HOST_MAP: tt.hostMapJson });
    web = cluster.nodes[0];
    pro = await web.signUp({ pro: true });
    const v = tt.addVideo({
      subtitles: [{ lang: 'eng-US', vtt: VTT }],
      media: { file: toneMp4(2, { faststart: true }) },
    });
    project = await (await pro.post('/api/caption-projects', { source: { kind: 'link', url: v.url } })).json();
    expect(project.lines.length).toBeGreaterThan(0);
    await cluster.nodes[1].close(); // from here on nobody works jobs until the test starts a worker
    cluster.nodes.pop();
  }, 120_000);
  afterAll(async () => {
    await cluster.close();
    await tt.close();
  });

  it('a save that lands while the render waits is never stored under the earlier key', async () => {
    const asked = await pro.request('POST', `/api/caption-projects/${project.id}/render`, undefined, {
      prefer: 'respond-async',
    });
    expect(asked.status).toBe(202);
    const { id } = (await asked.json()) as { id: string };
    const oldKey = renderKey(project.id, buildAss(project));

    const lines = project.lines.map((l, i) =>
      i === 0 ? { ...l, words: [{ ...l.words[0], text: 'changed' }, ...l.words.slice(1)] } : l,
    );
    const saved = await pro.request('PUT', `/api/caption-projects/${project.id}`, {
      revision: project.revision,
      lines,
      style: project.style,
    });
    expect(saved.status).toBe(200);

    await cluster.add('worker');
    let state = '';
    let body: { state: string; error?: { code: string } } = { state: '' };
    for (let i = 0; i < 600 && !['done', 'failed'].includes(state); i++) {
      body = await (await pro.get(`/api/media-jobs/${id}`)).json();
      state = body.state;
      if (!['done', 'failed'].includes(state)) await new Promise((r) => setTimeout(r, 100));
    }
    expect(body).toMatchObject({ state: 'failed', error: { code: 'studio.render_outdated' } });
    expect(await web.ctx.repos.mediaResults.findFresh(oldKey)).toBeFalsy();

    // Rendering again renders the saved revision.
    const again = await pro.post(`/api/caption-projects/${project.id}/render`, {});
    expect(again.status).toBe(200);
  }, 180_000);
});

// A hostile Bluesky PDS (issue 42, finding 1): a video's captions file is 2 MB made to cost its
// parser more than its length. Before the fix, one cue of 120,000 `<` held the event loop 14 s
// (`/api/health` waited as long) and 2 MB of small cues at 0:00 got no answer in 20 s.
//
// The server runs in this test's process, with the fake PDS, on a machine that may be running other
// test files, so the thresholds are loose: the request answers within 15 s and `/api/health` keeps
// a p99 under 2 s while it runs, where before the fix it waited 14 s for 120 KB and got no answer
// in 20 s for the cues. What remains is linear: at most 10,000 cues and 20,000 words are kept, read
// in 8 ms slices, but merging them and checking the answer against its schema is one piece of
// work (about a second on a 2-core machine at load 20, tens of milliseconds on an idle one). The
// 100 ms goal is measured on the built server by bench/attacks/hostile-captions.attack.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeBluesky, type FakeBluesky } from '../fakes/bluesky/fake-bluesky.js';
import { toneMp4 } from '../fakes/media-samples.js';

const MB2 = 2 * 1024 * 1024 - 64;
const CUE = '00:00:00.000 --> 00:00:01.000\n';
const fill = (shape: string) => shape.repeat(Math.floor(MB2 / shape.length));
const HOSTILE: Record<string, string> = {
  'one cue of unclosed <': `WEBVTT\n\n${CUE}${fill('<')}`,
  'small cues all at 0:00': `WEBVTT\n\n${fill(`${CUE}a b\n\n`)}`,
};

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? Number.NaN;

/** `/api/health` asked one after the other until `until` settles; each answer's time in ms. */
async function healthWhile(baseUrl: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const times: number[] = [];
  while (!done) {
    const started = performance.now();
    const res = await fetch(`${baseUrl}/api/health`);
    await res.arrayBuffer();
    times.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 10));
  }
  return times;
}

describe.each(DB_KINDS)('a hostile PDS serving 2 MB captions (%s)', (db) => {
  let bs: FakeBluesky;
  let t: TestApp;
  let pro: TestClient;
  const video = toneMp4(3, { faststart: true });
  beforeAll(async () => {
    bs = await startFakeBluesky();
    t = await createTestApp({ db, env: { UPSTREAM_HOST_MAP: bs.hostMapJson } });
    pro = await t.signUp({ pro: true });
  });
  afterAll(async () => {
    await Promise.all([bs.close(), t.close()]);
  });

  for (const [shape, vtt] of Object.entries(HOSTILE)) {
    it(`answers captions of ${shape} while /api/health keeps answering`, { timeout: 60_000 }, async () => {
      const { url } = bs.addVideoPost({ file: video, vtt });
      const started = performance.now();
      const request = pro.post('/api/transcription/generate', { url }).then(async (res) => ({
        status: res.status,
        body: await res.text(),
        ms: performance.now() - started,
      }));
      const health = await healthWhile(t.baseUrl, request);
      const answer = await request;
      const summary = `${health.length} probes, p99 ${Math.round(p99(health))} ms, answered in ${Math.round(answer.ms)} ms`;
      expect(answer.status, `${summary}: ${answer.body.slice(0, 200)}`).toBeLessThan(500);
      expect(answer.ms, summary).toBeLessThan(15_000);
      expect(p99(health), summary).toBeLessThan(2000);
    });
  }
});

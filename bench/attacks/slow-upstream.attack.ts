// A PDS that trickles (issue 42, finding 4): one free account asks for two previews whose video
// blobs its PDS sends at 1 KB every 20 s, never silent long enough for the idle timeout. Before the
// floor on the rate, each preview held a media slot for MEDIA_TIMEOUT_SECONDS (300 s). Measured:
// `/api/health` p99 while the two are held, how long until the slow fetches are cut (default
// UPSTREAM_MIN_KBPS / UPSTREAM_STALL_SECONDS), and how soon a preview after them gets its slot.
import { request } from 'undici';
import { startServer } from '../../test/helpers/e2e.js';
import { startFakeBluesky } from '../../test/fakes/bluesky/fake-bluesky.js';
import { toneMp4 } from '../../test/fakes/media-samples.js';
import { healthAtRest, healthDuring, type AttackResult } from './health-probe.js';

export default async function slowUpstream(): Promise<AttackResult> {
  const bs = await startFakeBluesky();
  const server = await startServer({ UPSTREAM_HOST_MAP: bs.hostMapJson, LOG_LEVEL: 'error' });
  try {
    const reg = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email: `slow${Date.now()}@example.com`, password: 'correct horse battery' }),
    });
    const cookie = reg.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    // The preview link the card gets for this person (POST /api/video/info), keyed for it (0082):
    // undici's request sends no Fetch Metadata, so only a keyed link is served.
    const previewOf = async (p: { url: string }) => {
      const info = await fetch(`${server.url}/api/video/info`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url, cookie },
        body: JSON.stringify({ url: p.url }),
      });
      return `${server.url}${((await info.json()) as { videoUrl: string }).videoUrl}`;
    };
    const preview = async (url: string) => {
      const t0 = performance.now();
      const res = await request(url, { headers: { cookie } });
      const body = await res.body.text();
      const code =
        res.statusCode === 302
          ? 'clip'
          : ((e: { code: string; message: string }) => `${e.code} (${e.message})`)(JSON.parse(body));
      return { status: res.statusCode, code, ms: performance.now() - t0 };
    };
    const restP99Ms = await healthAtRest(server.url);
    const slow = [bs.addVideoPost({ file: toneMp4(20) }), bs.addVideoPost({ file: toneMp4(21) })];
    bs.state.blobTrickle = { bytes: 1024, everyMs: 20_000 };
    const links = await Promise.all(slow.map(previewOf));
    const attack = await healthDuring(server.url, Promise.all(links.map(preview)));
    bs.state.blobTrickle = null;
    const after = await preview(await previewOf(bs.addVideoPost({ file: toneMp4(3, { faststart: true }) })));
    const cut = attack.value.map((r) => `${r.status} ${r.code} after ${(r.ms / 1000).toFixed(1)} s`).join(', ');
    return {
      name: 'slow upstream (two previews, PDS at 1 KB / 20 s)',
      restP99Ms,
      attackP99Ms: attack.p99,
      notes:
        `slow previews: ${cut}; PDS transfers still open after: ${bs.state.trickling}; ` +
        `next preview: ${after.status} ${after.code} in ${(after.ms / 1000).toFixed(1)} s`,
    };
  } finally {
    bs.state.blobTrickle = null;
    await server.stop();
    await bs.close();
  }
}

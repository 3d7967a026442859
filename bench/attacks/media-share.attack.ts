// One account holds its share of the media slots (issue 42, finding 4b): a Free account's previews
// of videos whose upstream trickles for minutes, several at once, with MEDIA_CONCURRENCY 2. Measured:
// how long an honest Pro account's audio extractions wait to start (the CDN sees their first byte
// asked for) and to finish, one after another, and /api/health p99 meanwhile.
import { toneMp4 } from '../../test/fakes/media-samples.js';
import { type AttackResult, healthAtRest, healthDuring } from './health-probe.js';
import { startMediaServer } from './media-accounts.js';

const HOGS = Number(process.env.HOGS ?? 4);
const HONEST = Number(process.env.HONEST ?? 5);
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

export default async function mediaShare(): Promise<AttackResult> {
  const m = await startMediaServer({ MEDIA_CONCURRENCY: '2', MEDIA_WAIT_SECONDS: '5' });
  const abort = new AbortController();
  try {
    const hog = await m.account(true);
    const honest = await m.account(true);
    const rest = await healthAtRest(m.server.url);
    // The hog's jobs: audio extractions of videos that take ten minutes to arrive (kept after the
    // request's MEDIA_WAIT_SECONDS, as the previews were).
    for (let i = 0; i < HOGS; i++) {
      const v = m.tt.addVideo({ media: { file: toneMp4(60) }, duration: 60, bytesPerSecond: 1000 });
      void fetch(`${m.server.url}/api/audio/extract`, {
        method: 'POST',
        headers: hog.headers,
        body: JSON.stringify({ url: v.url }),
        signal: abort.signal,
      }).catch(() => undefined);
    }
    const hogging = () => m.tt.transfers.filter((x) => !x.completed && !x.aborted).length;
    for (let waited = 0; hogging() < 1 && waited < 20_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
    const starts: number[] = [];
    const totals: number[] = [];
    const honestRuns = (async () => {
      for (let i = 0; i < HONEST; i++) {
        const v = m.tt.addVideo({ media: { file: toneMp4(3) }, duration: 3 });
        const asked = performance.now();
        const done = fetch(`${m.server.url}/api/audio/extract`, {
          method: 'POST',
          headers: honest.headers,
          body: JSON.stringify({ url: v.url }),
        }).then(async (r) => ({ status: r.status, body: await r.text() }));
        for (;;) {
          if (m.tt.transfers.some((x) => x.path.includes(`/${v.id}/`))) break;
          if (performance.now() - asked > 60_000) break;
          await new Promise((r) => setTimeout(r, 10));
        }
        starts.push(performance.now() - asked);
        const r = await done;
        totals.push(r.status === 200 ? performance.now() - asked : Number.POSITIVE_INFINITY);
      }
    })();
    const during = await healthDuring(m.server.url, honestRuns);
    return {
      name: `an honest account's audio extraction while another holds ${HOGS} trickling jobs`,
      restP99Ms: rest,
      attackP99Ms: during.p99,
      notes:
        `honest job start p50 ${pct(starts, 50).toFixed(0)} ms, max ${Math.max(...starts).toFixed(0)} ms; ` +
        `done p50 ${pct(totals, 50).toFixed(0)} ms, max ${Math.max(...totals).toFixed(0)} ms (${HONEST} runs); ` +
        `hog transfers open at the end: ${hogging()}`,
    };
  } finally {
    abort.abort();
    await m.stop();
  }
}

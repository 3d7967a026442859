// 900 long polls of one media job (GET /api/media-jobs/<id>?wait=25000) from one Pro account, all at
// once (issue 42, finding 6): the server's CPU over the attack, its RSS growth, and /api/health p99
// meanwhile. Each poll is a client like hooks/use-media-job.ts: answered unchanged at once, it asks
// again after a second; the attack lasts 30 s. The job is an audio extraction waiting for the one slot.
import { mediaJobToken } from '../../src/shared/media-job-token.js';
import { toneMp4 } from '../../test/fakes/media-samples.js';
import { type AttackResult, healthAtRest, healthDuring } from './health-probe.js';
import { startMediaServer } from './media-accounts.js';

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const POLLS = Number(process.env.POLLS ?? 900);
const ATTACK_MS = Number(process.env.ATTACK_MS ?? 30_000);

export default async function longPolls(): Promise<AttackResult> {
  const m = await startMediaServer({ MEDIA_CONCURRENCY: '1' });
  try {
    const pro = await m.account(true);
    // One slot, held by a video that trickles; the polled job waits behind it, so nothing about it
    // changes during the attack and every poll is held (as in the finding, without progress news).
    const ask = (url: string) =>
      fetch(`${m.server.url}/api/audio/extract`, {
        method: 'POST',
        headers: { ...pro.headers, prefer: 'respond-async' },
        body: JSON.stringify({ url }),
      });
    const slow = () => m.tt.addVideo({ media: { file: toneMp4(60) }, duration: 60, bytesPerSecond: 500 });
    const first = await ask(slow().url);
    const res = await ask(slow().url);
    if (first.status !== 202 || res.status !== 202) throw new Error(`the jobs did not start: ${res.status}`);
    const job = (await res.json()) as { id: string; state: string; progress?: number; position?: number };
    const rest = await healthAtRest(m.server.url);
    const cpu0 = m.cpuMs();
    const rss0 = m.rssMb();
    let rssPeak = rss0;
    const rssTimer = setInterval(() => {
      rssPeak = Math.max(rssPeak, m.rssMb());
    }, 250);
    const end = Date.now() + ATTACK_MS;
    let answers = 0;
    let held = 0;
    let failed = 0;
    const lat: number[] = [];
    const client = async () => {
      let seen = mediaJobToken(job);
      while (Date.now() < end) {
        const asked = Date.now();
        const r = await fetch(`${m.server.url}/api/media-jobs/${job.id}?wait=25000&seen=${encodeURIComponent(seen)}`, {
          headers: pro.headers,
        }).catch(() => null);
        if (r?.ok) seen = mediaJobToken((await r.json()) as typeof job);
        else await r?.arrayBuffer();
        answers++;
        lat.push(Date.now() - asked);
        if (!r?.ok) failed++;
        if (Date.now() - asked >= 1000) held++;
        else await new Promise((r2) => setTimeout(r2, 1000));
      }
    };
    const t0 = Date.now();
    const during = await healthDuring(m.server.url, Promise.all(Array.from({ length: POLLS }, client)));
    clearInterval(rssTimer);
    const cpuMs = m.cpuMs() - cpu0;
    const seconds = (Date.now() - t0) / 1000;
    return {
      name: `${POLLS} long polls from one Pro account`,
      restP99Ms: rest,
      attackP99Ms: during.p99,
      notes:
        `server CPU ${(cpuMs / 1000).toFixed(1)} s over ${seconds.toFixed(0)} s, RSS +${(rssPeak - rss0).toFixed(0)} MB; ` +
        `${answers} answers (${failed} not 200), ${held} of them after ≥ 1 s; answer p50 ${pct(lat, 50)} ms`,
    };
  } finally {
    await m.stop();
  }
}

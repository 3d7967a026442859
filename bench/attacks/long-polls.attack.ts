// 900 long polls of one media job (GET /api/media-jobs/<id>?wait=25000) from one Pro account, all at
// once (issue 42, finding 6): the server's CPU over the attack, its RSS growth, and /api/health p99
// meanwhile. Each poll is a client like hooks/use-media-job.ts: answered unchanged at once, it asks
// again after a second; the attack lasts 30 s. The job is an audio extraction of a video that trickles.
import { mediaJobToken } from '../../src/shared/media-job-token.js';
import { toneMp4 } from '../../test/fakes/media-samples.js';
import { type AttackResult, healthAtRest, healthDuring } from './health-probe.js';
import { startMediaServer } from './media-accounts.js';

const POLLS = Number(process.env.POLLS ?? 900);
const ATTACK_MS = Number(process.env.ATTACK_MS ?? 30_000);

export default async function longPolls(): Promise<AttackResult> {
  const m = await startMediaServer({ MEDIA_CONCURRENCY: '1' });
  try {
    const pro = await m.account(true);
    const v = m.tt.addVideo({ media: { file: toneMp4(60) }, duration: 60, bytesPerSecond: 4000 });
    const res = await fetch(`${m.server.url}/api/audio/extract`, {
      method: 'POST',
      headers: { ...pro.headers, prefer: 'respond-async' },
      body: JSON.stringify({ url: v.url }),
    });
    if (res.status !== 202) throw new Error(`the job did not start: ${res.status} ${await res.text()}`);
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
    const client = async () => {
      let seen = mediaJobToken(job);
      while (Date.now() < end) {
        const asked = Date.now();
        const r = await fetch(
          `${m.server.url}/api/media-jobs/${job.id}?wait=25000&seen=${encodeURIComponent(seen)}`,
          { headers: pro.headers },
        ).catch(() => null);
        const body = r?.ok ? ((await r.json()) as typeof job) : (await r?.arrayBuffer(), null);
        if (body) seen = mediaJobToken(body);
        answers++;
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
        `${answers} answers, ${held} of them held ≥ 1 s`,
    };
  } finally {
    await m.stop();
  }
}

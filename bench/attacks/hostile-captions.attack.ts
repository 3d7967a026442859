// Issue 42, finding 1: a Bluesky video whose captions file on the author's (hostile) PDS is 2 MB
// made to cost its parser more than its length: one cue of unclosed `<`, then small cues that all
// start at 0:00. `/api/health` is asked meanwhile; before the fix the first held it 14 s at 120 KB.
import { startFakeBluesky } from '../../test/fakes/bluesky/fake-bluesky.js';
import { toneMp4 } from '../../test/fakes/media-samples.js';
import { startProServer } from '../pro-server.js';
import { type AttackResult, healthAtRest, healthDuring } from './health-probe.js';

const MB2 = 2 * 1024 * 1024 - 64;
const CUE = '00:00:00.000 --> 00:00:01.000\n';
const fill = (shape: string) => shape.repeat(Math.floor(MB2 / shape.length));
const SHAPES: Record<string, string> = {
  'unclosed <': `WEBVTT\n\n${CUE}${fill('<')}`,
  'cues at 0:00': `WEBVTT\n\n${fill(`${CUE}a b\n\n`)}`,
};

export default async function hostileCaptions(): Promise<AttackResult> {
  const bs = await startFakeBluesky();
  const { server, headers } = await startProServer({ UPSTREAM_HOST_MAP: bs.hostMapJson });
  try {
    const restP99Ms = await healthAtRest(server.url);
    const video = toneMp4(3, { faststart: true });
    let attackP99Ms = 0;
    const notes: string[] = [];
    for (const [shape, vtt] of Object.entries(SHAPES)) {
      const { url } = bs.addVideoPost({ file: video, vtt });
      const started = performance.now();
      const request = fetch(`${server.url}/api/transcription/generate`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url }),
      }).then(async (res) => ({ status: res.status, bytes: (await res.arrayBuffer()).byteLength }));
      const { p99, samples, value } = await healthDuring(server.url, request, 10);
      attackP99Ms = Math.max(attackP99Ms, p99);
      notes.push(
        `${shape}: ${value.status} in ${Math.round(performance.now() - started)} ms, ` +
          `health p99 ${Math.round(p99)} ms over ${samples.length} probes`,
      );
    }
    return { name: 'hostile captions (2 MB from a Bluesky PDS)', restP99Ms, attackP99Ms, notes: notes.join('; ') };
  } finally {
    await server.stop();
    await bs.close();
  }
}

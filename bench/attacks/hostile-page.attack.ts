// Issue 42, finding 1: a TikTok page answered by a hostile server (here one small HTTP server on
// 127.0.0.1 standing for www.tiktok.com): 2 MB made to cost the page reader more than its length.
// Unclosed `<p id="wci" ` (the bot-check reader took 18 s for 120 KB before the fix), unclosed
// `<script ` and rehydration scripts that never end. `/api/health` is asked meanwhile.
import http from 'node:http';
import { startProServer } from '../pro-server.js';
import { type AttackResult, healthAtRest, healthDuring } from './health-probe.js';

const MB2 = 2 * 1024 * 1024 - 64;
const fill = (shape: string) => shape.repeat(Math.floor(MB2 / shape.length));
const SHAPES: Record<string, string> = {
  'unclosed <p id="wci"': fill('<p id="wci" '),
  'unclosed <script': fill('<script '),
  'scripts never closed': fill('<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__">'),
};

export default async function hostilePage(): Promise<AttackResult> {
  let page = '';
  const site = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  const { server, headers } = await startProServer({
    UPSTREAM_HOST_MAP: JSON.stringify({ 'www.tiktok.com': origin, 'tiktok.com': origin }),
  });
  try {
    const restP99Ms = await healthAtRest(server.url);
    let attackP99Ms = 0;
    const notes: string[] = [];
    for (const [i, [shape, html]] of Object.entries(SHAPES).entries()) {
      page = html;
      const url = `https://www.tiktok.com/@someone/video/7${String(i).padStart(18, '0')}`;
      const started = performance.now();
      const request = fetch(`${server.url}/api/video/info`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url }),
      }).then(async (res) => ({ status: res.status, body: await res.text() }));
      const { p99, samples, value } = await healthDuring(server.url, request, 10);
      attackP99Ms = Math.max(attackP99Ms, p99);
      notes.push(
        `${shape}: ${value.status} in ${Math.round(performance.now() - started)} ms, ` +
          `health p99 ${Math.round(p99)} ms over ${samples.length} probes`,
      );
    }
    return { name: 'hostile TikTok page (2 MB)', restP99Ms, attackP99Ms, notes: notes.join('; ') };
  } finally {
    await server.stop();
    site.closeAllConnections();
    await new Promise((r) => site.close(r));
  }
}

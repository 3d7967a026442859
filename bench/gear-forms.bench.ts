// Gear forms (issue 28), against the fake TikTok CDN paced like a real one, medians of ROUNDS:
// 1. a whole HEVC MP4 gear (an older post's 1080p) through /api/video/download, as a ratio of the
//    same file fetched directly from the CDN paced at 100 MB/s (goal >= 0.95);
// 2. a DASH 1080p gear remuxed by the product, as a ratio of doing it by hand at 20 MB/s: fetch the
//    gear and the sound side by side, then `ffmpeg -c copy` (whose first byte is its whole file);
//    the product streams its remux (issue 38): whole file goal <= 1.0x, first byte <= 0.5x.
// Run: `node scripts/build.mjs && npx tsx bench/gear-forms.bench.ts` (ROUNDS, WHOLE_MB, SECONDS_OF_VIDEO).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { request } from 'undici';
import { startProServer } from './pro-server.js';
import { startFakeTikTok } from '../test/fakes/tiktok/fake-tiktok.js';
import { aacSound, FFMPEG, hevcVideoOnly, hevcWhole } from '../test/fakes/media-samples.js';
import { remuxArgs } from '../src/server/adapters/media/remux.js';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const WHOLE_MB = Number(process.env.WHOLE_MB ?? 100);
const SECONDS = Number(process.env.SECONDS_OF_VIDEO ?? 30);
const MB = 1024 * 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gear-bench-'));
// A real faststart HEVC+AAC head followed by padding up to WHOLE_MB: the product reads the head,
// then relays the rest as it comes.
const whole = path.join(tmp, 'whole.mp4');
fs.copyFileSync(hevcWhole(1080, 1920, 3), whole);
fs.appendFileSync(whole, Buffer.alloc(Math.max(0, WHOLE_MB * MB - fs.statSync(whole).size), 7));
const gear = hevcVideoOnly(1080, 1920, SECONDS);
const sound = aacSound(SECONDS);

const tt = await startFakeTikTok();
const { server, headers } = await startProServer({ UPSTREAM_HOST_MAP: tt.hostMapJson });
const drain = async (res: Response) => {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let n = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) n += r.value.length;
  return n;
};
/** The page's cookie, as a browser would have it, for fetching CDN files directly. */
async function pageCookie(url: string) {
  // undici's request, since fetch will not send a Host header (the fake answers pages by Host).
  const page = await request(`${tt.origin}${new URL(url).pathname}`, { headers: { host: 'www.tiktok.com' } });
  await page.body.dump();
  const setCookie = page.headers['set-cookie'];
  return (Array.isArray(setCookie) ? setCookie : [String(setCookie)]).map((c) => c.split(';')[0]).join('; ');
}
const cdn = (u: string, cookie: string) =>
  fetch(`${tt.origin}${new URL(u).pathname}${new URL(u).search}`, {
    headers: { cookie, referer: 'https://www.tiktok.com/' },
  });

try {
  const wholeRounds: Array<[number, number, number]> = [];
  for (let i = 0; i < ROUNDS; i++) {
    const v = tt.addVideo({
      bytesPerSecond: 100 * MB,
      hevc: { form: 'mp4', gears: { '1080p': whole, '720p': null }, sounds: [] },
    });
    await fetch(`${server.url}/api/video/info`, { method: 'POST', headers, body: JSON.stringify({ url: v.url }) });
    const cookie = await pageCookie(v.url);
    const gearUrl = v.item.video.bitrateInfo.find((g: { GearName: string }) => g.GearName === 'adapt_lowest_1080_1')
      .PlayAddr.UrlList[0];
    const d0 = performance.now();
    const direct = await drain(await cdn(gearUrl, cookie));
    const dt = performance.now() - d0;
    const p0 = performance.now();
    const res = await fetch(`${server.url}/api/video/download`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: v.url, quality: '1080p' }),
    });
    const got = await drain(res);
    const pt = performance.now() - p0;
    if (got !== direct || res.headers.get('x-video-quality') !== '1080p') throw new Error(`whole gear: ${got} bytes`);
    // The H.264 file of the same size and pacing, relayed as before issue 28: the reference path.
    const h = tt.addVideo({ bytesPerSecond: 100 * MB, media: { size: fs.statSync(whole).size } });
    await fetch(`${server.url}/api/video/info`, { method: 'POST', headers, body: JSON.stringify({ url: h.url }) });
    const h0 = performance.now();
    const hres = await fetch(`${server.url}/api/video/download`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: h.url, quality: 'hd' }),
    });
    if ((await drain(hres)) !== direct) throw new Error('h264 reference: short');
    wholeRounds.push([dt, pt, performance.now() - h0]);
  }
  const wd = median(wholeRounds.map((r) => r[0]));
  const wp = median(wholeRounds.map((r) => r[1]));
  const wr = median(wholeRounds.map((r) => r[0] / r[1]));
  const hr264 = median(wholeRounds.map((r) => r[0] / r[2]));
  console.log(
    `whole HEVC gear ${WHOLE_MB} MB, CDN paced at 100 MB/s, ${ROUNDS} rounds: direct ${wd.toFixed(0)} ms (baseline), ` +
      `via /api/video/download ${wp.toFixed(0)} ms; throughput ratio ${wr.toFixed(2)}x (goal >= 0.95); ` +
      `the H.264 file of the same size ${hr264.toFixed(2)}x`,
  );

  const dashRounds: Array<[number, number, number]> = [];
  for (let i = 0; i < ROUNDS; i++) {
    const v = tt.addVideo({
      bytesPerSecond: 20 * MB,
      hevc: { gears: { '1080p': gear, '720p': null }, sounds: [sound] },
    });
    await fetch(`${server.url}/api/video/info`, { method: 'POST', headers, body: JSON.stringify({ url: v.url }) });
    const cookie = await pageCookie(v.url);
    const gearUrl = v.item.video.bitrateInfo.find((g: { GearName: string }) => g.GearName === 'adapt_lowest_1080_1')
      .PlayAddr.UrlList[0];
    const soundUrl = [...v.item.video.bitrateAudioInfo].sort(
      (a: { Bitrate: number }, b: { Bitrate: number }) => b.Bitrate - a.Bitrate,
    )[0].UrlList.MainUrl;
    // By hand: both parts side by side into files, then a stream copy.
    const h0 = performance.now();
    const [g, s] = await Promise.all([cdn(gearUrl, cookie), cdn(soundUrl, cookie)]);
    const gFile = path.join(tmp, `g${i}.mp4`);
    const sFile = path.join(tmp, `s${i}.m4a`);
    await Promise.all([
      g.arrayBuffer().then((b) => fs.writeFileSync(gFile, Buffer.from(b))),
      s.arrayBuffer().then((b) => fs.writeFileSync(sFile, Buffer.from(b))),
    ]);
    execFileSync(FFMPEG, remuxArgs(gFile, sFile, path.join(tmp, `h${i}.mp4`)));
    const ht = performance.now() - h0;
    const p0 = performance.now();
    const res = await fetch(`${server.url}/api/video/download`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: v.url, quality: '1080p' }),
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let first = await reader.read();
    const pf = performance.now() - p0;
    while (!first.done) first = await reader.read();
    const pt = performance.now() - p0;
    if (res.headers.get('x-video-quality') !== '1080p') throw new Error('remux fell back');
    dashRounds.push([ht, pt, pf]);
  }
  const hd = median(dashRounds.map((r) => r[0]));
  const hp = median(dashRounds.map((r) => r[1]));
  const hf = median(dashRounds.map((r) => r[2]));
  const hr = median(dashRounds.map((r) => r[1] / r[0]));
  const fr = median(dashRounds.map((r) => r[2] / r[0]));
  console.log(
    `DASH 1080p remux ${SECONDS} s (${(fs.statSync(gear).size / 1e6).toFixed(1)} MB + ` +
      `${(fs.statSync(sound).size / 1e6).toFixed(2)} MB), CDN paced at 20 MB/s, ${ROUNDS} rounds: ` +
      `by hand ${hd.toFixed(0)} ms (baseline; its first byte is its whole file), via /api/video/download ` +
      `first byte ${hf.toFixed(0)} ms, whole ${hp.toFixed(0)} ms; whole ${hr.toFixed(2)}x (goal <= 1.0), ` +
      `first byte ${fr.toFixed(2)}x (goal <= 0.5)`,
  );
} finally {
  await server.stop();
  await tt.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}

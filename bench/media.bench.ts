// Audio and captions benchmarks (run: `npx tsx bench/media.bench.ts`), in one run on a 60 s clip,
// against baselines measured in this same process tree:
// 1. the product's POST /api/audio/extract (lookup through the fake TikTok, download to a temp
//    file, ffmpeg, checks, store) vs plain `ffmpeg -i clip.mp4 ... out.mp3` on the same file;
// 2. transcription real-time factor (processing time / audio length) per engine;
// 3. 8 concurrent extractions of different videos: failures, wall time, peak RSS of the process.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp } from '../test/helpers/test-app.js';
import { startFakeTikTok } from '../test/fakes/tiktok/fake-tiktok.js';
import { startFakeTranscribeApi } from '../test/fakes/fake-openai-transcribe.js';
import { FFMPEG, speechMp4, toneMp4 } from '../test/fakes/media-samples.js';
import { mp3Args } from '../src/server/adapters/media/ffmpeg-args.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-media-bench-'));

const clip = toneMp4(60, { size: '720x1280' }); // H.264 + AAC, moov at the end, like a phone export
const PASSAGES = [
  'Welcome to our cooking channel. Today we will make a simple tomato pasta with garlic, olive oil ' +
    'and fresh basil. It takes about twenty minutes from start to finish.',
  'The weather forecast for tomorrow shows heavy rain in the morning. In the afternoon the clouds ' +
    'will clear and the temperature will reach fifteen degrees.',
  'Thank you for watching this video. Please like and subscribe, and leave a comment below if you ' +
    'have any questions about travel in Japan.',
];
const speech = speechMp4([...PASSAGES, ...PASSAGES], 1.5); // about 60 s of speech with pauses
const speechSeconds = Number(
  execFileSync('/usr/bin/ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', speech], {
    encoding: 'utf8',
  }),
);

const tt = await startFakeTikTok();
const api = await startFakeTranscribeApi({ sentences: PASSAGES });
const t = await createTestApp({
  env: { UPSTREAM_HOST_MAP: tt.hostMapJson, TRANSCRIBE_API_URL: api.url, MEDIA_QUEUE_LIMIT: '16' },
});
const pro = await t.signUp({ pro: true });
console.log(`ffmpeg: ${t.ctx.config.FFMPEG_PATH ?? 'auto'}; cores: ${os.cpus().length}; runs: ${RUNS}`);

// 1. Extract vs plain ffmpeg, interleaved so machine noise hits both alike.
const plain: number[] = [];
const product: number[] = [];
for (let i = 0; i < RUNS + 1; i++) {
  let s = performance.now();
  const r = spawnSync(FFMPEG, mp3Args(clip, path.join(tmp, `plain${i}.mp3`)));
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
  const a = performance.now() - s;
  const v = tt.addVideo({ media: { file: clip }, duration: 60 }); // a new video: no stored result to reuse
  s = performance.now();
  const res = await pro.post('/api/audio/extract', { url: v.url });
  if (res.status !== 200) throw new Error(`extract failed: ${res.status} ${await res.text()}`);
  await res.json();
  const b = performance.now() - s;
  if (i > 0) {
    // the first round warms caches
    plain.push(a);
    product.push(b);
  }
}
const ratio = median(product) / median(plain);
console.log(
  `1. 60 s MP4 -> MP3 192k: plain ffmpeg ${median(plain).toFixed(0)} ms, product request ` +
    `${median(product).toFixed(0)} ms, ratio ${ratio.toFixed(2)}x (goal <= 1.30x)`,
);

// 2. Real-time factor per engine (the captions engine downloads no media at all).
async function rtf(label: string, make: () => ReturnType<typeof tt.addVideo>, expectEngine: string, runs: number) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const v = make();
    const s = performance.now();
    const res = await pro.post('/api/transcription/generate', { url: v.url });
    const body = await res.json();
    if (res.status !== 200 || body.engine !== expectEngine)
      throw new Error(`${label}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    times.push(performance.now() - s);
  }
  const ms = median(times);
  console.log(
    `2. ${label}: ${ms.toFixed(0)} ms for ${speechSeconds.toFixed(1)} s of audio, RTF ${(ms / 1000 / speechSeconds).toFixed(3)}`,
  );
}
const two = (n: number) => String(n).padStart(2, '0');
const cues = Array.from(
  { length: 30 },
  (_, i) => `00:00:${two(i * 2)}.000 --> 00:00:${two(i * 2 + 1)}.900\nline ${i}\n`,
);
const vtt = `WEBVTT\n\n${cues.join('\n')}`;
await rtf(
  'captions (TikTok WebVTT)',
  () => tt.addVideo({ media: { file: speech }, subtitles: [{ lang: 'eng-US', vtt }], duration: 60 }),
  'captions',
  RUNS,
);
await rtf(
  'api (fake OpenAI-compatible server on loopback: our upload + encode overhead only)',
  () => tt.addVideo({ media: { file: speech }, duration: 60 }),
  'api',
  RUNS,
);
await t.close();

// The offline engine alone: a second app without the API.
const off = await createTestApp({ env: { UPSTREAM_HOST_MAP: tt.hostMapJson } });
const offPro = await off.signUp({ pro: true });
{
  const times: number[] = [];
  let wordsOut = '';
  for (let i = 0; i < Math.min(RUNS, 3); i++) {
    const v = tt.addVideo({ media: { file: speech }, duration: 60 });
    const s = performance.now();
    const res = await offPro.post('/api/transcription/generate', { url: v.url });
    const body = await res.json();
    if (res.status !== 200 || body.engine !== 'offline') throw new Error(`offline: ${res.status}`);
    times.push(performance.now() - s);
    wordsOut = body.fullText;
  }
  const ms = median(times);
  console.log(
    `2. offline (pocketsphinx batch): ${ms.toFixed(0)} ms for ${speechSeconds.toFixed(1)} s, RTF ` +
      `${(ms / 1000 / speechSeconds).toFixed(3)} (${wordsOut.split(' ').length} words)`,
  );
}

// 3. 8 concurrent extractions of different 60 s videos.
{
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const videos = Array.from({ length: 8 }, () => tt.addVideo({ media: { file: clip }, duration: 60 }));
  const s = performance.now();
  const results = await Promise.all(
    videos.map((v) => offPro.post('/api/audio/extract', { url: v.url }).then((r) => r.status)),
  );
  const wall = performance.now() - s;
  clearInterval(sampler);
  const failures = results.filter((x) => x !== 200).length;
  console.log(
    `3. 8 concurrent extractions: ${failures} failures (${results.join(',')}), wall ` +
      `${wall.toFixed(0)} ms = ${(wall / median(plain)).toFixed(2)}x one plain ffmpeg run, ` +
      `${((8 * 60) / (wall / 1000)).toFixed(0)} s of audio per second, peak RSS ` +
      `+${((peak - rssBefore) / 1048576).toFixed(0)} MB (${(peak / 1048576).toFixed(0)} MB)`,
  );
}

await off.close();
await tt.close();
await api.close();
fs.rmSync(tmp, { recursive: true, force: true });

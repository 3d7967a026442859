// Caption studio (issue 29), server half:
// 1. Render: POST /api/caption-projects/:id/render (the whole media job: source from the store,
//    ASS, ffmpeg + libass, store, signed link) against the same ffmpeg command run bare on the same
//    local video and the same ASS file (the project's export). Goal <= 1.2x.
// 2. Offline transcription speed (goal <= 0.5x real time) and word error rate on real human speech:
//    LibriVox's public-domain "Sense and Sensibility" clips with their transcript, shipped by
//    Debian's pocketsphinx-testdata, through the product's offline engine.
// Run: `npx tsx bench/caption-studio.bench.ts` (ROUNDS=3, SECONDS=30, SIZE=1080x1920, PRESET=karaoke).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp } from '../test/helpers/test-app.js';
import { startFakeTikTok } from '../test/fakes/tiktok/fake-tiktok.js';
import { FFMPEG, toneMp4, wordErrorRate } from '../test/fakes/media-samples.js';
import { burnArgs } from '../src/server/adapters/media/caption-burn.js';
import { fontsDir } from '../src/server/adapters/media/studio-fonts.js';
import { createOfflineEngine } from '../src/server/adapters/asr/offline-engine.js';
import type { CaptionProject } from '../src/shared/contracts/caption-studio.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 30);
const SIZE = process.env.SIZE ?? '1080x1920';
const PRESET = (process.env.PRESET ?? 'karaoke') as CaptionProject['style']['preset'];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'caption-studio-bench-'));

// A spoken-length caption track: a cue every 2 s, four words each.
const vtt = `WEBVTT\n\n${Array.from({ length: SECONDS / 2 }, (_, i) => {
  const t = (s: number) =>
    `00:00:${String(Math.floor(s)).padStart(2, '0')}.${String(Math.round((s % 1) * 1000)).padStart(3, '0')}`;
  return `${t(i * 2)} --> ${t(i * 2 + 1.9)}\nwords number ${i} here`;
}).join('\n\n')}\n`;

async function render() {
  const source = toneMp4(SECONDS, { faststart: true, size: SIZE });
  const [width, height] = SIZE.split('x').map(Number);
  const tt = await startFakeTikTok();
  const t = await createTestApp({ env: { UPSTREAM_HOST_MAP: tt.hostMapJson, MEDIA_WAIT_SECONDS: '600' } });
  try {
    const pro = await t.signUp({ pro: true });
    const v = tt.addVideo({ subtitles: [{ lang: 'eng-US', vtt }], media: { file: source }, duration: SECONDS });
    let project = (await (
      await pro.post('/api/caption-projects', { source: { kind: 'link', url: v.url } })
    ).json()) as CaptionProject;
    const product: number[] = [];
    const bare: number[] = [];
    const fonts = await fontsDir(tmp);
    for (let i = 0; i < ROUNDS; i++) {
      // A changed word each round: a new render, not the kept one.
      project.lines[0].words[0].text = `round${i}`;
      const saved = await pro.request('PUT', `/api/caption-projects/${project.id}`, {
        revision: project.revision,
        lines: project.lines,
        style: { ...project.style, preset: PRESET },
      });
      project = (await saved.json()) as CaptionProject;
      const ass = path.join(tmp, `round${i}.ass`);
      fs.writeFileSync(ass, await (await pro.get(`/api/caption-projects/${project.id}/export/ass`)).text());
      const t0 = performance.now();
      const res = await pro.post(`/api/caption-projects/${project.id}/render`);
      if (res.status !== 200) throw new Error(`render: ${res.status} ${await res.text()}`);
      await res.json();
      product.push(performance.now() - t0);
      const b0 = performance.now();
      const args = burnArgs({
        input: source,
        ass,
        fontsDir: fonts,
        output: path.join(tmp, `bare${i}.mp4`),
        width,
        height,
        audioCodec: 'aac',
      });
      execFileSync(FFMPEG, args, { stdio: 'ignore' });
      bare.push(performance.now() - b0);
    }
    const [p, b] = [median(product), median(bare)];
    console.log(`burn-in of ${SECONDS} s ${SIZE} H.264/AAC, preset ${PRESET}, ${ROUNDS} rounds, medians:`);
    console.log(`  bare ffmpeg + libass, same ASS, same video: ${b.toFixed(0)} ms`);
    console.log(`  product render (media job, store, link): ${p.toFixed(0)} ms (${(p / b).toFixed(2)}x, goal <= 1.2x)`);
  } finally {
    await t.close();
    await tt.close();
  }
}

async function offline() {
  const dir = '/usr/share/pocketsphinx/test/data/librivox';
  if (!fs.existsSync(dir)) throw new Error('install pocketsphinx-testdata (scripts/ensure-media-deps.mjs does)');
  const lines = fs.readFileSync(path.join(dir, 'transcription'), 'utf8').trim().split('\n');
  const clips = lines.map((l) => {
    const m = /^<s> (.*) <\/s> \((.*)\)$/.exec(l.trim());
    if (!m) throw new Error(`unexpected transcription line: ${l}`);
    return { text: m[1], file: path.join(dir, `${m[2]}.wav`) };
  });
  // One clip, as a creator's video would carry it: the five readings with a second of silence between.
  const list = path.join(tmp, 'list.txt');
  const silence = path.join(tmp, 'silence.wav');
  execFileSync(FFMPEG, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '1', silence]);
  fs.writeFileSync(list, clips.flatMap((c) => [`file '${c.file}'`, `file '${silence}'`]).join('\n'));
  const speech = path.join(tmp, 'librivox.m4a');
  execFileSync(FFMPEG, ['-v', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list, '-c:a', 'aac', speech]);
  const seconds = Number(
    execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', speech], {
      encoding: 'utf8',
    }),
  );
  const engine = createOfflineEngine({
    ffmpeg: FFMPEG,
    modelDir: '/usr/share/pocketsphinx/model/en-us',
    timeoutMs: 600_000,
  });
  const work = fs.mkdtempSync(path.join(tmp, 'offline-'));
  const t0 = performance.now();
  const out = await engine.transcribe({
    subtitles: [],
    fetchText: async () => '',
    mediaFile: async () => speech,
    duration: seconds,
    workDir: work,
  });
  const ms = performance.now() - t0;
  const hypothesis = (out?.cues ?? []).map((c) => c.text).join(' ');
  const reference = clips.map((c) => c.text).join(' ');
  const words = (out?.cues ?? []).reduce((n, c) => n + (c.words?.length ?? 0), 0);
  console.log(
    `offline engine (Debian pocketsphinx 0.8, en-us model) on LibriVox, ${seconds.toFixed(1)} s, ${reference.split(' ').length} words:`,
  );
  console.log(`  time ${(ms / 1000).toFixed(1)} s = ${(ms / 1000 / seconds).toFixed(2)}x real time (goal <= 0.5x)`);
  console.log(`  word error rate ${(wordErrorRate(reference, hypothesis) * 100).toFixed(1)}% (${words} timed words)`);
  console.log(`  heard: ${hypothesis}`);
}

try {
  if (process.env.ONLY !== 'offline') await render();
  if (process.env.ONLY !== 'render') await offline();
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

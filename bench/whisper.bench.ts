// Whisper-class engine speed (issue 36): the product's whisper engine (ffmpeg, the whisper.cpp child
// process, words) on a clip of SECONDS, with models of the real size and shape of tiny and base
// (the real ggml format, scripted weights: the same computation as the published weights, and a
// realistic 100 tokens written per 30-second window; speed does not depend on the values). Against
// the built-in pocketsphinx engine on the same clip, in the same process tree. Goal: base <= 0.3x
// real time on 2 cores. Published weights cannot be fetched here (no internet).
// Run: `npx tsx bench/whisper.bench.ts` (ROUNDS=3, SECONDS=60, THREADS=1: the engine's default).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createOfflineEngine } from '../src/server/adapters/asr/offline-engine.js';
import type { TranscriptionEngine, TranscriptionInput } from '../src/server/adapters/asr/types.js';
import { createWhisperEngine } from '../src/server/adapters/asr/whisper-engine.js';
import { REAL_SIZES, writeFakeWhisperModel } from '../test/fakes/ggml-whisper-model.js';
import { FFMPEG, speechMp4 } from '../test/fakes/media-samples.js';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 60);
const THREADS = Number(process.env.THREADS ?? 1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'whisper-bench-'));

/** Spoken English (espeak-ng, synthetic) repeated to SECONDS: the built-in engine listens to speech. */
function clip(): string {
  const one = speechMp4(['the quick brown fox jumps over the lazy dog', 'and then it rests in the sun for a while']);
  const out = path.join(tmp, 'clip.wav');
  execFileSync(FFMPEG, ['-loglevel', 'error', '-y', '-stream_loop', '-1', '-i', one, '-t', String(SECONDS), out]);
  return out;
}

/** CPU seconds of this process's finished children (cutime + cstime of /proc/self/stat, 1/100 s ticks). */
function childCpuSeconds(): number {
  const f = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(f[13]) + Number(f[14])) / 100;
}

async function timeEngine(engine: TranscriptionEngine, media: string) {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const input: TranscriptionInput = {
      subtitles: [],
      fetchText: async () => '',
      mediaFile: async () => media,
      duration: SECONDS,
      workDir: fs.mkdtempSync(path.join(tmp, 'job-')),
    };
    const c0 = childCpuSeconds();
    const t0 = performance.now();
    const out = await engine.transcribe(input);
    walls.push((performance.now() - t0) / 1000);
    cpus.push(childCpuSeconds() - c0);
    if (!out?.cues.length) throw new Error(`${engine.id} wrote nothing`);
  }
  return { wall: median(walls), cpu: median(cpus) };
}

const media = clip();
const rows: string[] = [];
const offline = createOfflineEngine({
  ffmpeg: FFMPEG,
  modelDir: '/usr/share/pocketsphinx/model/en-us',
  timeoutMs: 600_000,
});
const row = (name: string, r: { wall: number; cpu: number }, ratio: string) =>
  `| ${name} | ${(r.wall / SECONDS).toFixed(3)}x | ${r.wall.toFixed(2)} s | ${r.cpu.toFixed(2)} s | ${ratio} |`;
let baseline = 0;
if (!offline.unavailableReason()) {
  const r = await timeEngine(offline, media);
  baseline = r.wall;
  rows.push(row('built-in pocketsphinx', r, '1.00'));
}
for (const size of ['tiny', 'base'] as const) {
  const models = path.join(tmp, size);
  fs.mkdirSync(models);
  writeFakeWhisperModel(path.join(models, `ggml-${size}.en.bin`), {
    dims: REAL_SIZES[size],
    weights: 'scripted',
    script: { tokens: 100, endSeconds: 29 },
  });
  const engine = createWhisperEngine({ ffmpeg: FFMPEG, modelsDir: models, threads: THREADS, timeoutMs: 600_000 });
  const r = await timeEngine(engine, media);
  rows.push(row(`whisper ${size}.en (real size)`, r, baseline ? (r.wall / baseline).toFixed(2) : 'n/a'));
}
console.log(`Clip ${SECONDS} s, ${THREADS} threads, median of ${ROUNDS}; load average ${os.loadavg()[0].toFixed(1)}`);
console.log('| engine | real-time factor | wall | CPU (children) | x built-in |');
console.log('| --- | --- | --- | --- | --- |');
for (const r of rows) console.log(r);
fs.rmSync(tmp, { recursive: true, force: true });

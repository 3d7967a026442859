// The Whisper-class engine an operator turns on (issue 36), on real whisper.cpp (npm smart-whisper)
// with model files this test makes (the real ggml format; scripted weights that write
// "Hello worldwide." whatever they hear: loading, running, word times and languages, not accuracy),
// and `models:fetch` against a stand-in for the model host on 127.0.0.1.
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/server/adapters/http/http-client.js';
import { createWhisperEngine } from '../../src/server/adapters/asr/whisper-engine.js';
import { fetchModel } from '../../src/server/admin/models-fetch.js';
import type { TranscriptionInput } from '../../src/server/adapters/asr/types.js';
import { FFMPEG } from '../fakes/media-samples.js';
import { SCRIPT_TEXT, writeFakeWhisperModel } from '../fakes/ggml-whisper-model.js';
import { type FakeModelHost, startFakeModelHost } from '../fakes/fake-model-host.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-whisper-'));
const ROOT = path.resolve(import.meta.dirname, '../..');
let host: FakeModelHost;
const served = path.join(dir, 'served-ggml-tiny.en.bin');
const servedMulti = path.join(dir, 'served-ggml-base.bin');
const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
let pins: Record<string, { sha256: string; bytes: number }>;

/** 4 s of a tone with a pause: whisper.cpp hears something; the scripted model writes its words. */
const clip = path.join(dir, 'clip.wav');

beforeAll(async () => {
  writeFakeWhisperModel(served, { weights: 'scripted' });
  writeFakeWhisperModel(servedMulti, { weights: 'scripted', multilingual: true, detects: 'de' });
  pins = {
    'tiny.en': { sha256: sha(served), bytes: fs.statSync(served).size },
    base: { sha256: sha(servedMulti), bytes: fs.statSync(servedMulti).size },
  };
  host = await startFakeModelHost({ 'ggml-tiny.en.bin': served, 'ggml-base.bin': servedMulti });
  execFileSync(FFMPEG, ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=300:duration=4', clip]);
});
afterAll(async () => {
  await host?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function fetchDeps(models: string, extra: { pins?: typeof pins; attempts?: number } = {}) {
  const lines: string[] = [];
  return {
    lines,
    deps: {
      http: createHttpClient({ hostMap: host.hostMap }),
      dir: models,
      pins: extra.pins ?? pins,
      attempts: extra.attempts,
      progress: (l: string) => lines.push(l),
    },
  };
}

const input = (workDir: string, language?: string): TranscriptionInput => ({
  subtitles: [],
  fetchText: async () => '',
  mediaFile: async () => clip,
  duration: 4,
  workDir,
  language,
});

describe('models:fetch', () => {
  it('downloads from the host (through its CDN redirect) with progress, checks the pin, stores the file', async () => {
    const models = path.join(dir, 'fetch-1');
    const { deps, lines } = fetchDeps(models);
    const message = await fetchModel('tiny.en', deps);
    expect(message).toMatch(/^Model tiny\.en stored in .*ggml-tiny\.en\.bin/);
    expect(sha(path.join(models, 'ggml-tiny.en.bin'))).toBe(pins['tiny.en'].sha256);
    expect(lines[0]).toBe('tiny.en: 0% (0.0 of 8.0 MB)');
    // A line every 5 %, each with the bytes so far.
    expect(lines.map((l) => Number(l.match(/^tiny\.en: (\d+)% \(\d+\.\d of 8\.0 MB\)$/)?.[1]))).toEqual(
      Array.from({ length: 21 }, (_, i) => i * 5),
    );
    expect(lines[lines.length - 1]).toBe('tiny.en: 100% (8.0 of 8.0 MB)');
    expect(fs.readdirSync(models)).toEqual(['ggml-tiny.en.bin']);
    // Again: nothing to download.
    expect(await fetchModel('tiny.en', deps)).toMatch(/already in/);
  });

  it('resumes a cut download with a Range request, in the same run and in the next one', async () => {
    const models = path.join(dir, 'fetch-2');
    const size = pins['tiny.en'].bytes;
    host.ranges.length = 0;
    host.cutAfter(3_000_000);
    const once = fetchDeps(models, { attempts: 1 });
    // What arrived before the connection closed is kept (undici may drop the last chunk in flight).
    const error = await fetchModel('tiny.en', once.deps).catch((e: Error) => e);
    const cut1 = fs.statSync(path.join(models, 'ggml-tiny.en.bin.part')).size;
    expect(cut1).toBeGreaterThan(2_500_000);
    expect(cut1).toBeLessThanOrEqual(3_000_000);
    expect(String(error)).toContain(
      `stopped at ${(cut1 / 1e6).toFixed(1)} MB of 8.0 MB (other side closed). Run the same command again to resume.`,
    );
    // The next run resumes there; cut again, it resumes once more by itself.
    host.cutAfter(2_000_000);
    const again = fetchDeps(models);
    await fetchModel('tiny.en', again.deps);
    const starts = host.ranges.map((r) => (r === '' ? 0 : Number(r.match(/^bytes=(\d+)-$/)?.[1])));
    expect(starts.slice(0, 2)).toEqual([0, cut1]);
    expect(starts).toHaveLength(3);
    expect(starts[2]).toBeGreaterThan(cut1 + 1_500_000);
    expect(starts[2]).toBeLessThanOrEqual(cut1 + 2_000_000);
    expect(again.lines).toContain(`tiny.en: the connection was cut at ${(starts[2] / 1e6).toFixed(1)} MB; resuming`);
    expect(sha(path.join(models, 'ggml-tiny.en.bin'))).toBe(pins['tiny.en'].sha256);
    expect(fs.statSync(path.join(models, 'ggml-tiny.en.bin')).size).toBe(size);
  });

  it('refuses a file whose checksum is not the pinned one and removes it', async () => {
    const models = path.join(dir, 'fetch-3');
    const wrong = { ...pins, 'tiny.en': { ...pins['tiny.en'], sha256: 'a'.repeat(64) } };
    await expect(fetchModel('tiny.en', fetchDeps(models, { pins: wrong }).deps)).rejects.toThrow(
      /ggml-tiny\.en\.bin failed its checksum \(SHA-256 [0-9a-f]{64}, expected a{64}\); the file was removed/,
    );
    expect(fs.readdirSync(models)).toEqual([]);
  });

  it('names the models it offers for an unknown name; the pinned checksums are the published ones', async () => {
    await expect(fetchModel('large', fetchDeps(path.join(dir, 'fetch-4')).deps)).rejects.toThrow(
      /models:fetch <small\.en, small, base\.en, base, tiny\.en, tiny>/,
    );
  });

  it('works as the command line does (progress on stderr), with the test pins from the environment', async () => {
    const data = path.join(dir, 'cli-data');
    const env = {
      ...process.env,
      DATA_DIR: data,
      NODE_ENV: 'test',
      UPSTREAM_HOST_MAP: JSON.stringify(host.hostMap),
      WHISPER_MODEL_PINS: JSON.stringify(pins),
    };
    const run = await new Promise<{ code: number; out: string; err: string }>((resolve) => {
      const p = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', 'models:fetch', 'tiny.en'], {
        cwd: ROOT,
        env,
      });
      let out = '';
      let err = '';
      p.stdout.on('data', (d) => (out += d));
      p.stderr.on('data', (d) => (err += d));
      p.on('exit', (code) => resolve({ code: code ?? 1, out, err }));
    });
    expect(run.err).toContain('tiny.en: 50% (');
    expect(run.code).toBe(0);
    expect(run.out).toContain(`stored in ${path.join(data, 'models', 'ggml-tiny.en.bin')}`);
  });
});

describe('the whisper engine', () => {
  it('without a model: unavailable, naming the command; a model put there is used at once', async () => {
    const models = path.join(dir, 'engine-1');
    const engine = createWhisperEngine({ ffmpeg: FFMPEG, modelsDir: models, timeoutMs: 60_000 });
    expect(engine.unavailableReason()).toBe('fetch a Whisper model (npm run cli -- models:fetch base.en)');
    expect(await engine.transcribe(input(dir))).toBeNull();
    fs.mkdirSync(models);
    fs.copyFileSync(served, path.join(models, 'ggml-tiny.en.bin'));
    expect(engine.unavailableReason()).toBeNull();
    expect(engine.cacheId?.()).toBe('whisper-tiny.en');
    const work = fs.mkdtempSync(path.join(dir, 'job-'));
    const out = await engine.transcribe(input(work, 'fr'));
    // An English-only model writes English whatever is asked.
    expect(out?.language).toBe('en');
    expect(out?.cues.map((c) => c.text)).toEqual([SCRIPT_TEXT, SCRIPT_TEXT]);
    const [first] = out!.cues;
    expect(first.start).toBe(0);
    expect(first.end).toBe(1.5);
    expect(first.words?.map((w) => w.text)).toEqual(['Hello', 'worldwide.']);
    for (const w of out!.cues.flatMap((c) => c.words ?? [])) {
      expect(w.start).toBeLessThanOrEqual(w.end);
      expect(w.end).toBeLessThanOrEqual(4);
    }
    expect(first.words![0].start).toBeLessThan(first.words![1].start);
  });

  it('a multilingual model detects the language, or uses the one asked for', async () => {
    const models = path.join(dir, 'engine-2');
    fs.mkdirSync(models);
    fs.copyFileSync(servedMulti, path.join(models, 'ggml-base.bin'));
    const engine = createWhisperEngine({ ffmpeg: FFMPEG, modelsDir: models, timeoutMs: 60_000 });
    const detected = await engine.transcribe(input(fs.mkdtempSync(path.join(dir, 'job-'))));
    expect(detected?.language).toBe('de');
    const asked = await engine.transcribe(input(fs.mkdtempSync(path.join(dir, 'job-')), 'fr'));
    expect(asked?.language).toBe('fr');
    expect(asked?.cues[0].text).toBe(SCRIPT_TEXT);
    // Whisper's translate task (issue 46): whisper.cpp runs it and the captions are English.
    const translated = await engine.transcribe({ ...input(fs.mkdtempSync(path.join(dir, 'job-'))), translate: true });
    expect(translated?.language).toBe('en');
    expect(translated?.cues[0].text).toBe(SCRIPT_TEXT);
  });

  it('a damaged model fails the job cleanly (the server lives on) and is then reported, until replaced', async () => {
    const models = path.join(dir, 'engine-3');
    fs.mkdirSync(models);
    const file = path.join(models, 'ggml-tiny.en.bin');
    fs.writeFileSync(file, fs.readFileSync(served).subarray(0, 5_000_000));
    const engine = createWhisperEngine({ ffmpeg: FFMPEG, modelsDir: models, timeoutMs: 60_000 });
    expect(engine.unavailableReason()).toBeNull(); // not known yet: checked when first used
    await expect(engine.transcribe(input(dir))).rejects.toThrow(
      /Whisper model ggml-tiny\.en\.bin: the file is cut short/,
    );
    expect(engine.unavailableReason()).toBe(
      'the Whisper model ggml-tiny.en.bin is damaged (the file is cut short); fetch it again (npm run cli -- models:fetch tiny.en)',
    );
    fs.copyFileSync(served, file);
    expect(engine.unavailableReason()).toBeNull();
    const out = await engine.transcribe(input(fs.mkdtempSync(path.join(dir, 'job-'))));
    expect(out?.cues[0].text).toBe(SCRIPT_TEXT);
  });
});

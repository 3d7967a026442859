// `npm run cli -- models:fetch <name>`: downloads a whisper.cpp model from its official host into
// DATA_DIR/models, resuming a cut download (HTTP Range on `<file>.part`), printing progress, and
// keeping it only when its size and SHA-256 are the pinned ones (whisper-models.ts). Through the
// guarded HTTP client (allow-listed hosts; UPSTREAM_HOST_MAP re-routes them in tests). Nothing else
// ever downloads a model: not install, start or tests (docs/decisions/0066).
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { fail } from '../errors.js';
import type { createHttpClient } from '../adapters/http/http-client.js';
import { inspectWhisperModel } from '../adapters/asr/ggml-model.js';
import {
  MODEL_HOST_ALLOW,
  WHISPER_MODELS,
  type WhisperModelPin,
  modelFileName,
  modelUrl,
} from '../adapters/asr/whisper-models.js';

export interface ModelFetchDeps {
  http: ReturnType<typeof createHttpClient>;
  dir: string;
  /** WHISPER_MODEL_PINS (tests only): replaces a model's pinned checksum and size. */
  pins?: Record<string, WhisperModelPin>;
  /** Progress lines (stderr in the command line). */
  progress: (line: string) => void;
  /** Tries in one run when the connection is cut (each resumes where the last stopped). */
  attempts?: number;
}

const MB = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

async function sha256(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

const sizeOf = (file: string) => fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;

export async function fetchModel(name: string | undefined, deps: ModelFetchDeps): Promise<string> {
  const model = WHISPER_MODELS.find((m) => m.name === name);
  if (!model) {
    const names = WHISPER_MODELS.map((m) => m.name).join(', ');
    throw fail('cli.invalid', { reason: `Name a model to fetch: npm run cli -- models:fetch <${names}>` });
  }
  const pin = deps.pins?.[model.name] ?? model;
  await fsp.mkdir(deps.dir, { recursive: true });
  const file = path.join(deps.dir, modelFileName(model.name));
  const part = `${file}.part`;
  if (fs.existsSync(file)) {
    if (sizeOf(file) === pin.bytes && (await sha256(file)) === pin.sha256)
      return `Model ${model.name} is already in ${file}.`;
    throw fail('cli.failed', {
      reason: `${file} is there and is not the published ${model.name}: remove it to fetch again.`,
    });
  }
  if (sizeOf(part) > pin.bytes) await fsp.rm(part);

  let lastError = '';
  const attempts = deps.attempts ?? 5;
  for (let attempt = 0; attempt < attempts && sizeOf(part) < pin.bytes; attempt++) {
    const from = sizeOf(part);
    try {
      await download(modelUrl(model.name), part, from, pin.bytes, model.name, deps);
    } catch (err) {
      lastError = err instanceof Error ? err.message : String(err);
      // No progress at all in this try: the host is not answering as it should; stop here.
      if (sizeOf(part) === from || attempt + 1 === attempts) break;
      deps.progress(`${model.name}: the connection was cut at ${MB(sizeOf(part))}; resuming`);
    }
  }
  if (sizeOf(part) < pin.bytes)
    throw fail('cli.failed', {
      reason: `The download of ${model.name} stopped at ${MB(sizeOf(part))} of ${MB(pin.bytes)} (${lastError}). Run the same command again to resume.`,
    });
  const digest = await sha256(part);
  if (digest !== pin.sha256) {
    await fsp.rm(part, { force: true });
    throw fail('cli.failed', {
      reason: `${modelFileName(model.name)} failed its checksum (SHA-256 ${digest}, expected ${pin.sha256}); the file was removed.`,
    });
  }
  await inspectWhisperModel(part).catch(async (err) => {
    await fsp.rm(part, { force: true });
    throw fail('cli.failed', { reason: `${modelFileName(model.name)} is not a usable model (${err.message}).` });
  });
  await fsp.rename(part, file);
  return `Model ${model.name} stored in ${file} (${MB(pin.bytes)}). The next transcription uses it.`;
}

/** One GET from `from` on (a Range request when resuming), appended to `part`. */
async function download(url: string, part: string, from: number, total: number, name: string, deps: ModelFetchDeps) {
  const res = await deps.http.request(url, {
    allow: MODEL_HOST_ALLOW,
    headers: from > 0 ? { range: `bytes=${from}-` } : {},
    maxBytes: total - from + 1,
    maxRedirects: 5,
  });
  const resumed = res.status === 206 && String(res.headers['content-range'] ?? '').startsWith(`bytes ${from}-`);
  if (res.status !== 200 && !resumed) {
    await res.dump();
    throw new Error(`the model host answered HTTP ${res.status}`);
  }
  // A 200 to a Range request is the whole file again: start over.
  let done = resumed ? from : 0;
  let shown = -1;
  const report = () => {
    const percent = Math.floor((done / total) * 20) * 5; // every 5 %
    if (percent === shown) return;
    shown = percent;
    deps.progress(`${name}: ${percent}% (${(done / 1e6).toFixed(1)} of ${MB(total)})`);
  };
  report();
  // Every byte received is kept, even when the connection is cut mid-way: the next try resumes there.
  const out = fs.createWriteStream(part, { flags: resumed ? 'a' : 'w' });
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      done += chunk.length;
      report();
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } finally {
    await new Promise((r) => out.end(r));
  }
}

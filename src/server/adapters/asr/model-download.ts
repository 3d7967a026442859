// Getting a whisper.cpp model file into DATA_DIR/models, the one way the command line
// (`models:fetch`, `models:import`) and the server's own fetch (services/whisper-model.service.ts)
// share: from its official host through the guarded HTTP client, resuming a cut download (HTTP
// Range on `<file>.part`), or from a file the operator brings; kept only when its size and SHA-256
// are the pinned ones (whisper-models.ts) and whisper.cpp can load it. Decisions 0066 and 0130.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import type { createHttpClient } from '../http/http-client.js';
import { inspectWhisperModel } from './ggml-model.js';
import {
  MODEL_HOST_ALLOW,
  WHISPER_MODELS,
  type CatalogueModel,
  type WhisperModelPin,
  modelFileName,
  modelUrl,
} from './whisper-models.js';

/** Why a model could not be had: the host did not answer as it should, or the file is not the pinned one. */
export class ModelDownloadError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'stopped' | 'checksum' | 'unusable' | 'mismatch',
    message: string,
  ) {
    super(message);
  }
}

export interface ModelDownloadDeps {
  http: ReturnType<typeof createHttpClient>;
  dir: string;
  /** WHISPER_MODEL_PINS (tests only): replaces a model's pinned checksum and size. */
  pins?: Record<string, WhisperModelPin>;
  /** Bytes on disk so far of `total`; `resumed` when a cut connection is taken up again. */
  progress?: (done: number, total: number, event?: 'resumed') => void;
  /** Tries in one run when the connection is cut (each resumes where the last stopped). */
  attempts?: number;
}

export const MB = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

export async function sha256Of(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

export const sizeOf = (file: string) => fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
export const catalogueModel = (name: string | undefined) => WHISPER_MODELS.find((m) => m.name === name);
export const pinOf = (model: CatalogueModel, pins?: Record<string, WhisperModelPin>) => pins?.[model.name] ?? model;

/** Checks a whole file against the pin and whisper.cpp's format, then moves it to its place. */
async function keepIfPinned(from: string, to: string, model: CatalogueModel, pin: WhisperModelPin, move: boolean) {
  const digest = await sha256Of(from);
  const size = sizeOf(from);
  if (digest !== pin.sha256 || size !== pin.bytes) {
    if (move) await fsp.rm(from, { force: true });
    throw new ModelDownloadError(
      'checksum',
      `${modelFileName(model.name)} failed its checksum (SHA-256 ${digest}, expected ${pin.sha256})${move ? '; the file was removed' : ''}`,
    );
  }
  await inspectWhisperModel(from).catch(async (err: Error) => {
    if (move) await fsp.rm(from, { force: true });
    throw new ModelDownloadError('unusable', `${modelFileName(model.name)} is not a usable model (${err.message})`);
  });
  if (move) await fsp.rename(from, to);
  else {
    // Copied beside its place first, so a half-copied file is never taken for the model.
    await fsp.copyFile(from, `${to}.part`);
    await fsp.rename(`${to}.part`, to);
  }
}

/** The model's file in `dir`: already there (checked), or downloaded now. */
export async function downloadModel(
  model: CatalogueModel,
  deps: ModelDownloadDeps,
): Promise<{ file: string; already: boolean }> {
  const pin = pinOf(model, deps.pins);
  await fsp.mkdir(deps.dir, { recursive: true });
  const file = path.join(deps.dir, modelFileName(model.name));
  const part = `${file}.part`;
  if (fs.existsSync(file)) {
    if (sizeOf(file) === pin.bytes && (await sha256Of(file)) === pin.sha256) return { file, already: true };
    throw new ModelDownloadError(
      'mismatch',
      `${file} is there and is not the published ${model.name}: remove it to fetch again.`,
    );
  }
  if (sizeOf(part) > pin.bytes) await fsp.rm(part);

  let lastError = '';
  const attempts = deps.attempts ?? 5;
  for (let attempt = 0; attempt < attempts && sizeOf(part) < pin.bytes; attempt++) {
    const from = sizeOf(part);
    try {
      await download(modelUrl(model.name), part, from, pin.bytes, deps);
    } catch (err) {
      lastError = err instanceof Error ? err.message : String(err);
      // No progress at all in this try: the host is not answering as it should; stop here.
      if (sizeOf(part) === from || attempt + 1 === attempts) break;
      deps.progress?.(sizeOf(part), pin.bytes, 'resumed');
    }
  }
  if (sizeOf(part) < pin.bytes)
    throw new ModelDownloadError(
      sizeOf(part) === 0 ? 'unreachable' : 'stopped',
      `The download of ${model.name} stopped at ${MB(sizeOf(part))} of ${MB(pin.bytes)} (${lastError}).`,
    );
  await keepIfPinned(part, file, model, pin, true);
  return { file, already: false };
}

/**
 * `models:import <file>`: a file brought by hand (air-gapped servers) is kept when it is one of the
 * catalogue's models by its pinned size and SHA-256, under that model's file name.
 */
export async function importModel(
  source: string,
  deps: Pick<ModelDownloadDeps, 'dir' | 'pins'>,
): Promise<{ model: CatalogueModel; file: string }> {
  const size = sizeOf(source);
  const digest = size ? await sha256Of(source) : '';
  const model = WHISPER_MODELS.find((m) => {
    const pin = pinOf(m, deps.pins);
    return pin.bytes === size && pin.sha256 === digest;
  });
  if (!model)
    throw new ModelDownloadError(
      'checksum',
      `${source} is none of the published models (SHA-256 ${digest || 'of an empty or missing file'}); the pinned ones are ${WHISPER_MODELS.map((m) => m.name).join(', ')}`,
    );
  await fsp.mkdir(deps.dir, { recursive: true });
  const file = path.join(deps.dir, modelFileName(model.name));
  await keepIfPinned(source, file, model, pinOf(model, deps.pins), false);
  return { model, file };
}

/** One GET from `from` on (a Range request when resuming), appended to `part`. */
async function download(url: string, part: string, from: number, total: number, deps: ModelDownloadDeps) {
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
  deps.progress?.(done, total);
  // Every byte received is kept, even when the connection is cut mid-way: the next try resumes there.
  const out = fs.createWriteStream(part, { flags: resumed ? 'a' : 'w' });
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      done += chunk.length;
      deps.progress?.(done, total);
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } finally {
    await new Promise((r) => out.end(r));
  }
}

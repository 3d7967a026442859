// The server fetches its own Whisper model (issue 46), against a stand-in for the model host on
// 127.0.0.1 serving a model file this test makes (the real ggml format, pinned by the test through
// WHISPER_MODEL_PINS): a cut download resumed, a wrong checksum refused and removed, an unreachable
// host (the built-in recogniser runs and the studio's status says why), WHISPER_AUTO_FETCH=off
// (no request at all, counted at the stand-in), two nodes on one PostgreSQL database and one
// DATA_DIR asking at once (one download), and `models:import` checking the same pins.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/server/adapters/http/http-client.js';
import { findModelFile } from '../../src/server/adapters/asr/whisper-models.js';
import { importModelFile } from '../../src/server/admin/models-fetch.js';
import { openPostgres } from '../../src/server/db/client.js';
import { createWhisperModelService } from '../../src/server/services/whisper-model.service.js';
import { writeFakeWhisperModel } from '../fakes/ggml-whisper-model.js';
import { type FakeModelHost, startFakeModelHost } from '../fakes/fake-model-host.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { speechMp4 } from '../fakes/media-samples.js';
import { createTestApp } from '../helpers/test-app.js';
import { createPostgresDatabase } from '../helpers/test-db.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-whisper-auto-'));
const served = path.join(dir, 'served-ggml-tiny.en.bin');
const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
let host: FakeModelHost;
let pins: Record<string, { sha256: string; bytes: number }>;
let n = 0;
const quiet = { info() {}, warn() {} };

beforeAll(async () => {
  writeFakeWhisperModel(served, { weights: 'scripted' });
  pins = { 'tiny.en': { sha256: sha(served), bytes: fs.statSync(served).size } };
  host = await startFakeModelHost({ 'ggml-tiny.en.bin': served });
});
afterAll(async () => {
  await host?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** One node's model service on `models` (fresh by default), fetching tiny.en from the stand-in. */
function service(
  opts: {
    models?: string;
    pins?: typeof pins;
    hostMap?: Record<string, string>;
    lock?: <T>(w: () => Promise<T>) => Promise<T>;
  } = {},
) {
  const models = opts.models ?? path.join(dir, `models-${++n}`);
  const svc = createWhisperModelService({
    http: createHttpClient({ hostMap: opts.hostMap ?? host.hostMap }),
    dir: models,
    model: 'tiny.en',
    autoFetch: true,
    pins: opts.pins ?? pins,
    present: () => findModelFile(models, 'tiny.en') !== null,
    oneNodeAtATime: opts.lock ?? ((work) => work()),
    logger: quiet,
  });
  return { svc, models };
}

/** An address on this machine where nothing listens. */
async function closedOrigin(): Promise<string> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

describe('the server fetches its Whisper model', () => {
  it('resumes a cut download where it stopped and keeps the checked file', async () => {
    const { svc, models } = service();
    host.ranges.length = 0;
    host.cutAfter(3_000_000);
    expect(svc.status()).toEqual({ state: 'preparing', model: 'tiny.en', percent: 0 });
    await svc.ensure();
    expect(svc.status()).toEqual({ state: 'ready', model: 'tiny.en' });
    const starts = host.ranges.map((r) => (r === '' ? 0 : Number(r.match(/^bytes=(\d+)-$/)?.[1])));
    expect(starts).toHaveLength(2);
    expect(starts[0]).toBe(0);
    expect(starts[1]).toBeGreaterThan(2_500_000);
    expect(starts[1]).toBeLessThanOrEqual(3_000_000);
    expect(sha(path.join(models, 'ggml-tiny.en.bin'))).toBe(pins['tiny.en'].sha256);
    expect(fs.readdirSync(models)).toEqual(['ggml-tiny.en.bin']);
  });

  it('refuses a file whose checksum is not the pinned one, removes it, and says why', async () => {
    const wrong = { 'tiny.en': { ...pins['tiny.en'], sha256: 'b'.repeat(64) } };
    const { svc, models } = service({ pins: wrong });
    await svc.ensure();
    expect(svc.status()).toEqual({
      state: 'unavailable',
      model: 'tiny.en',
      reason: 'the downloaded file was not the published model (its checksum did not match) and was removed',
    });
    expect(fs.readdirSync(models)).toEqual([]);
  });

  it('two nodes on one database and one DATA_DIR asking at once download the model once', async () => {
    const fresh = await createPostgresDatabase({ migrated: true });
    const a = await openPostgres(fresh.url);
    const b = await openPostgres(fresh.url);
    try {
      const models = path.join(dir, 'shared-models');
      const nodeA = service({ models, lock: (w) => a.oneNodeAtATime(w, 'whisperModel') });
      const nodeB = service({ models, lock: (w) => b.oneNodeAtATime(w, 'whisperModel') });
      const before = host.requests.length;
      await Promise.all([nodeA.svc.ensure(), nodeB.svc.ensure()]);
      // One request to the host (its redirect) and one to its CDN: one download.
      expect(host.requests.slice(before)).toEqual([
        'huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-tiny.en.bin',
        'cas-bridge.xethub.hf.co/xet/ggml-tiny.en.bin?sig=1',
      ]);
      expect(nodeA.svc.status().state).toBe('ready');
      expect(nodeB.svc.status().state).toBe('ready');
    } finally {
      await a.close();
      await b.close();
      await fresh.drop();
    }
  });

  it('models:import keeps a file with the pinned checksum and refuses any other', async () => {
    const models = path.join(dir, 'imported');
    await expect(importModelFile(served, { dir: models, pins })).resolves.toMatch(
      /^Model tiny\.en checked against its pinned SHA-256 and stored in .*ggml-tiny\.en\.bin/,
    );
    expect(sha(path.join(models, 'ggml-tiny.en.bin'))).toBe(pins['tiny.en'].sha256);
    const other = path.join(dir, 'not-a-model.bin');
    fs.writeFileSync(other, 'hello');
    await expect(importModelFile(other, { dir: path.join(dir, 'imported-2'), pins })).rejects.toThrow(
      /not-a-model\.bin is none of the published models/,
    );
    expect(fs.existsSync(path.join(dir, 'imported-2', 'ggml-tiny.en.bin'))).toBe(false);
  });
});

describe('the studio while the model cannot be had', () => {
  let tt: FakeTikTok;
  beforeAll(async () => {
    tt = await startFakeTikTok();
  });
  afterAll(async () => {
    await tt?.close();
  });

  const start = (env: Record<string, string>) =>
    createTestApp({
      env: {
        WHISPER_MODEL: 'tiny.en',
        WHISPER_MODEL_PINS: JSON.stringify(pins),
        ...env,
        UPSTREAM_HOST_MAP: JSON.stringify({ ...JSON.parse(tt.hostMapJson), ...JSON.parse(env.UPSTREAM_HOST_MAP) }),
      },
    });

  it('an unreachable host: the built-in recogniser writes the captions and the status says why', async () => {
    const closed = await closedOrigin();
    const app = await start({
      WHISPER_AUTO_FETCH: 'on',
      UPSTREAM_HOST_MAP: JSON.stringify({ 'huggingface.co': closed, '*.hf.co': closed }),
    });
    try {
      await app.ctx.services.whisperModel.ensure();
      const user = await app.signUp({ pro: true });
      const status = await user.get('/api/caption-studio/whisper');
      expect(await status.json()).toEqual({
        state: 'unavailable',
        model: 'tiny.en',
        reason: 'this server cannot reach the model host (huggingface.co)',
      });
      const v = tt.addVideo({ desc: 'no captions', media: { file: speechMp4(['hello there']) } });
      const res = await user.post('/api/caption-projects', { source: { kind: 'link', url: v.url } });
      expect(res.status).toBe(201);
      expect(((await res.json()) as { engine: string }).engine).toBe('offline');
    } finally {
      await app.close();
    }
  });

  it('WHISPER_AUTO_FETCH=off: no request reaches the model host, even when captions are asked for', async () => {
    const before = host.requests.length;
    const app = await start({ WHISPER_AUTO_FETCH: 'off', UPSTREAM_HOST_MAP: JSON.stringify(host.hostMap) });
    try {
      const user = await app.signUp({ pro: true });
      // Asking for captions is the need that would start the fetch (the video's own are used here).
      const vtt = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nhello there\n';
      const v = tt.addVideo({
        desc: 'captioned',
        subtitles: [{ lang: 'eng-US', vtt }],
        media: { file: speechMp4(['hello there']) },
      });
      const res = await user.post('/api/caption-projects', { source: { kind: 'link', url: v.url } });
      expect(res.status).toBe(201);
      expect(((await res.json()) as { engine: string }).engine).toBe('captions');
      // "Transcribe again with Whisper": the sound is listened to, the platform's captions left aside
      // (here by the built-in recogniser: this server has no model).
      const again = await user.post('/api/caption-projects', { source: { kind: 'link', url: v.url }, listen: true });
      expect(again.status).toBe(201);
      expect(((await again.json()) as { engine: string }).engine).toBe('offline');
      await app.ctx.services.whisperModel.ensure();
      expect(await (await user.get('/api/caption-studio/whisper')).json()).toEqual({ state: 'off', model: 'tiny.en' });
      expect(host.requests.length).toBe(before);
    } finally {
      await app.close();
    }
  });
});

// The server fetches its Whisper model by itself (issue 46), as a Pro creator sees it in Chromium:
// the stand-in model host (127.0.0.1) sends 42.5 % of the file and holds the rest, so the studio
// shows the built-in recogniser's words and "Better captions are being prepared: 42 %"; once the
// host sends the rest the studio offers "Transcribe again with Whisper", and the new project's words
// are by Whisper. The model file is made by the test (real ggml format, scripted weights).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { speechMp4 } from '../fakes/media-samples.js';
import { writeFakeWhisperModel } from '../fakes/ggml-whisper-model.js';
import { type FakeModelHost, startFakeModelHost } from '../fakes/fake-model-host.js';
import {
  launchBrowser,
  newPage,
  registerProInBrowser,
  screenshot,
  startServer,
  type RunningServer,
} from '../helpers/e2e.js';

let server: RunningServer;
let browser: Browser;
let tt: FakeTikTok;
let host: FakeModelHost;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-whisper-auto-e2e-'));
const model = path.join(dir, 'ggml-tiny.en.bin');

beforeAll(async () => {
  writeFakeWhisperModel(model, { weights: 'scripted' });
  const size = fs.statSync(model).size;
  const sha256 = crypto.createHash('sha256').update(fs.readFileSync(model)).digest('hex');
  tt = await startFakeTikTok();
  host = await startFakeModelHost({ 'ggml-tiny.en.bin': model });
  host.holdAfter(Math.ceil(size * 0.425));
  server = await startServer({
    UPSTREAM_HOST_MAP: JSON.stringify({ ...JSON.parse(tt.hostMapJson), ...host.hostMap }),
    WHISPER_AUTO_FETCH: 'on',
    WHISPER_MODEL: 'tiny.en',
    WHISPER_MODEL_PINS: JSON.stringify({ 'tiny.en': { sha256, bytes: size } }),
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  host?.release();
  await browser?.close();
  await server?.stop();
  await tt?.close();
  await host?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the Whisper model fetched by the server', () => {
  it('the studio shows the model being prepared, then transcribes again with Whisper', async () => {
    const v = tt.addVideo({ desc: 'No captions here', media: { file: speechMp4(['hello everyone welcome back']) } });
    const { page } = await newPage(browser, { width: 1280, height: 1000 });
    const email = `autofetch${Date.now()}@example.com`;
    await registerProInBrowser(page, server, email);

    await page.goto(`${server.url}/auto-captions`);
    await page.getByLabel('Video link for the caption studio').fill(v.url);
    // The translate option is offered beside the spoken language (Pro: the whole studio is).
    await page.getByLabel('English captions for a video in another language').waitFor();
    await screenshot(page, 'whisper-auto-fetch-picker');
    await page.getByRole('button', { name: 'Edit captions of this link' }).click();
    await page.getByTestId('caption-studio').waitFor({ timeout: 60_000 });
    const note = page.getByTestId('studio-engine');
    expect(await note.getAttribute('data-engine')).toBe('offline');
    const state = page.getByTestId('whisper-state');
    await state.filter({ hasText: 'Better captions are being prepared: 42 %.' }).waitFor({ timeout: 30_000 });
    expect(await note.textContent()).toBe(
      'Words by the built-in recogniser (English only, rough): check every line. Better captions are being prepared: 42 %.',
    );
    await screenshot(page, 'whisper-auto-fetch-preparing');

    // The host sends the rest: the studio's next look at the model finds it ready.
    host.release();
    const again = page.getByRole('button', { name: 'Transcribe again with Whisper' });
    await again.waitFor({ timeout: 30_000 });
    expect(fs.existsSync(path.join(server.dataDir, 'models', 'ggml-tiny.en.bin'))).toBe(true);
    await again.click();
    await page.locator('[data-testid="studio-engine"][data-engine="whisper"]').waitFor({ timeout: 60_000 });
    expect(await note.textContent()).toBe('Words by Whisper on this server (English): check before publishing.');
    await screenshot(page, 'whisper-auto-fetch-whisper');
    // One download: the host's redirect and its CDN, once each.
    expect(host.requests.filter((r) => r.includes('ggml-tiny.en.bin'))).toHaveLength(2);
  });
});

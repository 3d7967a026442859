// The Whisper engine as an operator turns it on and a Pro creator sees it (issue 36), in Chromium:
// a clip without captions is transcribed by the built-in recogniser and the studio names the
// command; the operator runs `models:fetch tiny.en` (against a stand-in for the model host, the
// checksum pinned for the test's own model file); the next project from the same clip is written
// by whisper.cpp, and the studio says so. The model file is made by the test (real ggml format,
// scripted weights that write "Hello worldwide."): it proves the engine runs, not accuracy.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { WHISPER_FETCH_COMMAND } from '../../src/shared/contracts/caption-studio.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { speechMp4 } from '../fakes/media-samples.js';
import { SCRIPT_TOKENS, writeFakeWhisperModel } from '../fakes/ggml-whisper-model.js';
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
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-whisper-e2e-'));
const model = path.join(dir, 'ggml-tiny.en.bin');

beforeAll(async () => {
  writeFakeWhisperModel(model, { weights: 'scripted' });
  const sha256 = crypto.createHash('sha256').update(fs.readFileSync(model)).digest('hex');
  tt = await startFakeTikTok();
  host = await startFakeModelHost({ 'ggml-tiny.en.bin': model });
  server = await startServer({
    UPSTREAM_HOST_MAP: JSON.stringify({ ...JSON.parse(tt.hostMapJson), ...host.hostMap }),
    WHISPER_MODEL_PINS: JSON.stringify({ 'tiny.en': { sha256, bytes: fs.statSync(model).size } }),
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tt?.close();
  await host?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('whisper engine in the caption studio', () => {
  it('built-in first, naming the command; after models:fetch the next project is by Whisper', async () => {
    const v = tt.addVideo({ desc: 'No captions here', media: { file: speechMp4(['hello everyone welcome back']) } });
    const { page } = await newPage(browser, { width: 1280, height: 1000 });
    const email = `whisper${Date.now()}@example.com`;
    await registerProInBrowser(page, server, email);

    const open = async () => {
      await page.goto(`${server.url}/auto-captions`);
      await page.getByLabel('Video link for the caption studio').fill(v.url);
      await page.getByRole('button', { name: 'Edit captions of this link' }).click();
      await page.getByTestId('caption-studio').waitFor({ timeout: 60_000 });
    };
    await open();
    const note = page.getByTestId('studio-engine');
    expect(await note.getAttribute('data-engine')).toBe('offline');
    // Tests do not fetch the model by themselves (WHISPER_AUTO_FETCH is off under NODE_ENV=test).
    await page.locator('[data-testid="whisper-state"][data-state="off"]').waitFor();
    expect(await note.textContent()).toContain(`the server's administrator runs ${WHISPER_FETCH_COMMAND} once`);
    await screenshot(page, 'whisper-studio-builtin');

    // The operator turns Whisper on: progress on stderr, the checked file in DATA_DIR/models.
    const fetched = await server.cli(['models:fetch', 'tiny.en']);
    expect(fetched.stderr).toContain('tiny.en: 100% (8.0 of 8.0 MB)');
    expect(fetched.code).toBe(0);
    expect(fs.existsSync(path.join(server.dataDir, 'models', 'ggml-tiny.en.bin'))).toBe(true);

    // No restart: the next project from the same clip is written by whisper.cpp.
    await open();
    expect(await note.getAttribute('data-engine')).toBe('whisper');
    expect(await note.textContent()).toBe('Words by Whisper on this server (English): check before publishing.');
    const words = await page
      .getByLabel(/^Line 1, word \d+$/)
      .evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value));
    expect(words).toEqual(['Hello', `${SCRIPT_TOKENS[1].trim()}${SCRIPT_TOKENS[2]}${SCRIPT_TOKENS[3]}`]);
    await screenshot(page, 'whisper-studio-whisper');
  });
});

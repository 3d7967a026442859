// The caption studio as a Pro creator uses it (issue 29), in Chromium against the fake TikTok: a
// link with captions opens a project, a word is corrected (saved as typed, there after a reload), a
// style is picked, the render runs with progress, the captioned MP4 is downloaded and the frame at
// the corrected word's moment, read by tesseract-ocr, shows it. An uploaded clip opens a project too.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { CaptionProject } from '../../src/shared/contracts/caption-studio.js';
import { fitsSubtitle } from '../../src/shared/subtitle-lines.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { FFMPEG, FFPROBE, speechMp4 } from '../fakes/media-samples.js';
import {
  launchBrowser,
  newPage,
  registerInBrowser,
  screenshot,
  startServer,
  type RunningServer,
} from '../helpers/e2e.js';

let server: RunningServer;
let browser: Browser;
let tt: FakeTikTok;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-studio-e2e-'));

const VTT = `WEBVTT

00:00:00.500 --> 00:00:02.000
Hey everyone welcome back

00:00:02.000 --> 00:00:04.500
today we make fresh pasta
`;

/** A plain dark 540x960 clip with a tone: OCR reads burned-in captions on it reliably. */
function plainClip(seconds: number): string {
  const out = path.join(dir, 'plain.mp4');
  execFileSync(FFMPEG, [
    ...[
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `color=c=0x203040:s=540x960:r=25:d=${seconds}`,
    ],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}:sample_rate=44100`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'],
    ...['-movflags', '+faststart', out],
  ]);
  return out;
}

beforeAll(async () => {
  tt = await startFakeTikTok();
  server = await startServer({ UPSTREAM_HOST_MAP: tt.hostMapJson });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tt?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function proUser(page: Page, prefix: string) {
  const email = `${prefix}${Date.now()}@example.com`;
  await registerInBrowser(page, server.url, email);
  expect((await server.cli(['user:grant-pro', email])).code).toBe(0);
  await page.reload();
  await page.getByTestId('plan-badge').filter({ hasText: 'PRO' }).first().waitFor();
}

const saved = (page: Page) =>
  page.locator('[data-testid="studio-save-state"][data-state="saved"]').waitFor({ timeout: 15_000 });

function probe(file: string) {
  const j = JSON.parse(
    execFileSync(FFPROBE, ['-v', 'error', '-print_format', 'json', '-show_streams', file], { encoding: 'utf8' }),
  );
  const v = j.streams.find((s: { codec_type: string }) => s.codec_type === 'video');
  const a = j.streams.find((s: { codec_type: string }) => s.codec_type === 'audio');
  return { video: v?.codec_name, width: v?.width, height: v?.height, audio: a?.codec_name };
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Serious and critical axe-core violations of the page (axe is an inline script: the page's context bypasses CSP). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    type Result = { violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> };
    const axe = (window as unknown as { axe: { run: (d: Document, o: object) => Promise<Result> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** The frame at `at` seconds, negated to dark text on light for OCR, read by tesseract. */
function readFrame(file: string, at: number): string {
  const png = path.join(dir, `frame-${at}.png`);
  execFileSync(FFMPEG, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-ss', String(at), '-i', file],
    ...['-frames:v', '1', '-vf', 'negate,format=gray', png],
  ]);
  return execFileSync('tesseract', [png, '-', '--psm', '6'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

describe('caption studio', () => {
  it('link → correct a word → style → render → download: the frame shows the corrected word', async () => {
    const v = tt.addVideo({
      desc: 'Pasta night',
      media: { file: plainClip(6) },
      subtitles: [{ lang: 'eng-US', vtt: VTT }],
      duration: 6,
    });
    const { context, page } = await newPage(browser, { width: 1280, height: 1000 });
    await proUser(page, 'studio');
    await page.goto(`${server.url}/auto-captions`);
    await page.getByLabel('Video link for the caption studio').fill(v.url);
    await page.getByRole('button', { name: 'Edit captions of this link' }).click();
    const studio = page.getByTestId('caption-studio');
    await studio.waitFor({ timeout: 45_000 });
    expect(page.url()).toMatch(/\?project=[0-9a-f-]{36}$/);
    await page.locator('html[data-captions-preview="ready"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('studio-line').count()).toBe(2);

    // Correct "pasta" (line 2, word 5): saved as typed, still there after a reload.
    const word = page.getByLabel('Line 2, word 5');
    expect(await word.inputValue()).toBe('pasta');
    await word.fill('ravioli');
    await saved(page);
    await page.reload();
    await page.locator('html[data-captions-preview="ready"]').waitFor({ timeout: 30_000 });
    expect(await page.getByLabel('Line 2, word 5').inputValue()).toBe('ravioli');

    // Another browser opens the same project; its edit wins, and this tab is told and shown it.
    const other = await browser.newContext({ storageState: await context.storageState() });
    const otherPage = await other.newPage();
    await otherPage.goto(page.url());
    expect(await otherPage.getByLabel('Line 2, word 5').inputValue()).toBe('ravioli');
    await otherPage.getByLabel('Line 1, word 1').fill('Hi');
    await saved(otherPage);
    await other.close();
    await page.getByLabel('Line 1, word 2').fill('everybody');
    await page.getByTestId('toast').filter({ hasText: 'Updated elsewhere' }).first().waitFor();
    expect(await page.getByLabel('Line 1, word 1').inputValue()).toBe('Hi');
    expect(await page.getByLabel('Line 1, word 2').inputValue()).toBe('everyone');

    // A style: boxed captions, three words at a time.
    await page.getByLabel('Preset').selectOption('boxed');
    await page.getByLabel('Words per line').fill('3');
    await saved(page);
    const id = new URL(page.url()).searchParams.get('project') as string;
    const project: CaptionProject = await (await page.request.get(`${server.url}/api/caption-projects/${id}`)).json();
    expect(project.style).toMatchObject({ preset: 'boxed', wordsPerLine: 3 });
    const ravioli = project.lines[1].words[4];
    expect(ravioli.text).toBe('ravioli');
    const at = (ravioli.start + ravioli.end) / 2;

    // The preview at that moment (JASSUB draws the same ASS): look at it.
    await page.getByTestId('studio-video').evaluate(
      (el, t) =>
        new Promise((seeked) => {
          el.addEventListener('seeked', seeked, { once: true });
          (el as HTMLVideoElement).currentTime = t;
        }),
      at,
    );
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await screenshot(page, 'caption-studio-editor');

    // Render with progress, then download.
    // Cancel stops a render (even one that finishes as Cancel is pressed: it is shown as cancelled);
    // the next one runs to the end. (The second render may find the first one's file if that finished
    // before the Cancel reached the server, so its own Cancel button is not waited for.)
    const link = page.getByTestId('studio-download');
    await page.getByRole('button', { name: 'Render video' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('alert').filter({ hasText: 'Render cancelled.' }).waitFor();
    expect(await link.count()).toBe(0);
    await page.getByRole('button', { name: 'Render video' }).click();
    await link.waitFor({ timeout: 60_000 });
    await screenshot(page, 'caption-studio-rendered');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const file = (await download.path()) as string;
    expect(probe(file)).toEqual({ video: 'h264', width: 540, height: 960, audio: 'aac' });
    expect(readFrame(file, at)).toMatch(/ravioli/);
    expect(readFrame(file, 0.8)).toMatch(/Hi everyone/);

    // Exports carry the correction too.
    const vtt = await (await page.request.get(`${server.url}/api/caption-projects/${id}/export/vtt`)).text();
    expect(vtt).toMatch(/<00:00:0\d\.\d{3}>ravioli/);

    // The open editor has no serious or critical accessibility violations.
    const a11y = await browser.newContext({ storageState: await context.storageState(), bypassCSP: true });
    const a11yPage = await a11y.newPage();
    await a11yPage.goto(page.url());
    await a11yPage.getByTestId('caption-studio').waitFor();
    expect(await seriousViolations(a11yPage)).toEqual([]);
    await a11y.close();
    // A whole creator's session (transcribe, edit in two browsers, cancel, render, OCR): longer than one step.
  }, 150_000);

  it('a phone-edited clip (picture longer than its sound) opens with subtitle-shaped lines and exports', async () => {
    const clip = speechMp4(
      [
        'Today I will show you how to make fresh pasta at home with only flour, eggs and a little salt.',
        'It takes about twenty minutes, and it tastes much better than anything you can buy in a shop.',
      ],
      1.2,
      1.5,
    );
    const { page } = await newPage(browser);
    await proUser(page, 'phone');
    await page.goto(`${server.url}/auto-captions`);
    await page.getByTestId('studio-file').setInputFiles(clip);
    await page.getByTestId('caption-studio').waitFor({ timeout: 60_000 });
    const id = new URL(page.url()).searchParams.get('project') as string;
    const project: CaptionProject = await (await page.request.get(`${server.url}/api/caption-projects/${id}`)).json();
    // Two spoken sentences of about 95 characters each cannot be one line apiece: at least four lines.
    expect(project.lines.length).toBeGreaterThanOrEqual(4);
    expect(await page.getByTestId('studio-line').count()).toBe(project.lines.length);
    for (const line of project.lines) expect(fitsSubtitle(line.words)).toBe(true);
    await screenshot(page, 'caption-studio-subtitle-lines');
    const srt = await (await page.request.get(`${server.url}/api/caption-projects/${id}/export/srt`)).text();
    for (const cue of srt.trim().split('\n\n')) {
      const rows = cue.split('\n').slice(2);
      expect(rows.length).toBeGreaterThanOrEqual(1);
      expect(rows.length).toBeLessThanOrEqual(2);
      for (const row of rows) expect(row.length).toBeLessThanOrEqual(42);
    }
  }, 120_000);

  it('an uploaded clip becomes a project with its words', async () => {
    const clip = speechMp4(['hello world this is a test']);
    const { page } = await newPage(browser);
    await proUser(page, 'upload');
    await page.goto(`${server.url}/auto-captions`);
    // A file that is not a video is refused with the reason, and no project opens.
    const fake = path.join(dir, 'holiday.mp4');
    fs.writeFileSync(fake, 'this is not a video at all\n'.repeat(200));
    await page.getByTestId('studio-file').setInputFiles(fake);
    await page.getByRole('alert').filter({ hasText: 'This file is not a video.' }).waitFor();
    expect(await page.getByTestId('caption-studio').count()).toBe(0);

    await page.getByTestId('studio-file').setInputFiles(clip);
    await page.getByTestId('caption-studio').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('studio-line').count()).toBe(1);
    await screenshot(page, 'caption-studio-upload');

    // From the keyboard: split the line at the third word, move the new line later, merge them back.
    const lines = page.getByTestId('studio-line');
    await page.getByLabel('Line 1, word 3').focus();
    await page.keyboard.press('Alt+s');
    await expect.poll(() => lines.count()).toBe(2);
    const before = await lines.nth(1).getByRole('button').first().textContent();
    await page.getByLabel('Line 2, word 1').focus();
    await page.keyboard.press('Alt+ArrowRight');
    await expect.poll(() => lines.nth(1).getByRole('button').first().textContent()).not.toBe(before);
    await page.getByLabel('Line 1, word 1').focus();
    await page.keyboard.press('Alt+m');
    await expect.poll(() => lines.count()).toBe(1);
    await saved(page);

    // On a phone the editor fits the screen.
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'caption-studio-mobile');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  }, 120_000);
});

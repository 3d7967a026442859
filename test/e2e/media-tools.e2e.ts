// The audio extractor and auto captions as a Pro creator uses them, in Chromium against the fake
// TikTok: validation toasts, Extracting.../Generating..., result cards, downloads saved to disk;
// and the batch page (issue 21).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  launchBrowser,
  newPage,
  registerInBrowser,
  screenshot,
  startServer,
  type RunningServer,
} from '../helpers/e2e.js';
import { zipEntries } from '../helpers/zip.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { ffprobe, speechMp4, toneMp4 } from '../fakes/media-samples.js';

let server: RunningServer;
let browser: Browser;
let tt: FakeTikTok;

const VTT = `WEBVTT

00:00:00.500 --> 00:00:02.000
Hey everyone, welcome back

00:00:02.000 --> 00:00:04.500
today we make fresh pasta
`;

beforeAll(async () => {
  tt = await startFakeTikTok();
  server = await startServer({ UPSTREAM_HOST_MAP: tt.hostMapJson });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tt?.close();
});

async function proUser(page: Page, prefix: string) {
  const email = `${prefix}${Date.now()}@example.com`;
  await registerInBrowser(page, server.url, email);
  const granted = await server.cli(['user:grant-pro', email]);
  expect(granted.code).toBe(0);
  await page.reload();
  await page.getByTestId('plan-badge').filter({ hasText: 'PRO' }).first().waitFor();
}

const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title }).first();

describe('audio extractor', () => {
  it('validates, extracts and downloads an MP3', async () => {
    const v = tt.addVideo({ desc: 'Beach day vlog', media: { file: toneMp4(65) }, duration: 65 });
    const { page } = await newPage(browser);
    await proUser(page, 'audio');
    await page.goto(`${server.url}/audio-extractor`);
    await page.getByRole('heading', { name: 'Audio Extractor' }).waitFor();
    expect(await page.getByTestId('pro-upsell').count()).toBe(0);

    await page.getByRole('button', { name: 'Extract' }).click();
    await toast(page, 'URL required').waitFor();
    expect(await toast(page, 'URL required').getAttribute('data-variant')).toBe('destructive');
    await toast(page, 'URL required')
      .getByText('Please enter a TikTok or Bluesky or Reddit URL to extract audio')
      .waitFor();
    await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill('https://example.com/video/1');
    await page.getByRole('button', { name: 'Extract' }).click();
    await toast(page, 'Invalid URL').getByText('Please enter a valid TikTok or Bluesky or Reddit URL').waitFor();

    await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill(v.url);
    await page.getByRole('button', { name: 'Extract' }).click();
    await page.getByRole('button', { name: 'Extracting...' }).waitFor();
    const card = page.getByTestId('audio-result');
    await card.waitFor({ timeout: 30_000 });
    await page.getByText('Audio extracted!').first().waitFor();
    expect(await card.getByRole('heading').textContent()).toBe('Beach day vlog');
    await card.getByText('@fakecreator').waitFor();
    expect(await page.getByTestId('audio-duration').textContent()).toBe('1:05');
    await card.getByText('MP3 Format').waitFor();
    expect(await page.getByTestId('audio-size').textContent()).toMatch(/^1\.[45] MB$/);
    await screenshot(page, 'audio-extractor-desktop');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('link', { name: 'Download MP3' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Beach_day_vlog.mp3');
    const file = await download.path();
    const p = ffprobe(file!);
    expect(p.codec).toBe('mp3');
    expect(Math.abs(p.duration - 65)).toBeLessThanOrEqual(0.1);

    // Beside it, the sound as TikTok stores it (issue 28), through the downloader's GET link.
    expect(await card.getByTestId('sound-note').textContent()).toBe(
      'The 192 kbit/s MP3 is larger, not better: TikTok stores the sound at about 64–128 kbit/s.',
    );
    const [original] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('link', { name: 'Original sound (as TikTok stores it)' }).click(),
    ]);
    expect(original.suggestedFilename()).toBe(`tiktok-fakecreator-${v.id}-sound.m4a`);
    expect(fs.statSync(String(await original.path())).size).toBe(10_000); // the fake's best track, byte for byte

    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'audio-extractor-mobile');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });

  it('shows a free user the Pro upsell instead of the form, and the server refuses too', async () => {
    const { page } = await newPage(browser);
    const email = `free${Date.now()}@example.com`;
    await registerInBrowser(page, server.url, email);
    await page.goto(`${server.url}/audio-extractor`);
    await page.getByTestId('pro-upsell').getByText('This is a Pro feature. Upgrade to use it.').waitFor();
    expect(await page.getByRole('button', { name: 'Extract' }).count()).toBe(0);
    const res = await page.evaluate(async (url) => {
      const r = await fetch('/api/audio/extract', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
      });
      return { status: r.status, body: await r.json() };
    }, tt.addVideo().url);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('billing.pro_required');
  });

  it('shows the server message when extraction fails', async () => {
    const { page } = await newPage(browser);
    await proUser(page, 'audiofail');
    await page.goto(`${server.url}/audio-extractor`);
    await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill(tt.addError('private'));
    await page.getByRole('button', { name: 'Extract' }).click();
    await toast(page, 'Extraction failed').waitFor({ timeout: 20_000 });
    await toast(page, 'Extraction failed')
      .getByText(/This TikTok video is private/)
      .waitFor();
  });
});

describe('auto captions', () => {
  it("shows the video's captions with SRT, WebVTT and txt downloads", async () => {
    const v = tt.addVideo({ desc: 'Pasta night', subtitles: [{ lang: 'eng-US', vtt: VTT }], duration: 5 });
    const { page, context } = await newPage(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await proUser(page, 'captions');
    await page.goto(`${server.url}/auto-captions`);
    await page.getByRole('heading', { name: 'Auto Captions' }).waitFor();
    expect(await page.getByLabel('Video URL').getAttribute('type')).toBe('url');

    await page.getByRole('button', { name: 'Generate Captions' }).click();
    await toast(page, 'URL required').getByText('Please enter a TikTok or Bluesky or Reddit video URL').waitFor();

    await page.getByLabel('Video URL').fill(v.url);
    await page.getByRole('button', { name: 'Generate Captions' }).click();
    const result = page.getByTestId('captions-result');
    await result.waitFor({ timeout: 30_000 });
    await page.getByText('Transcription generated!').first().waitFor();
    expect(await page.getByTestId('captions-language').textContent()).toBe('EN');
    expect(await page.getByTestId('captions-count').textContent()).toBe('2 segments');
    expect(await page.getByTestId('captions-fulltext').textContent()).toBe(
      'Hey everyone, welcome back today we make fresh pasta',
    );
    const items = page.getByTestId('captions-segments').getByRole('listitem');
    expect(await items.count()).toBe(2);
    expect(await items.first().textContent()).toBe('0:00 - 0:02Hey everyone, welcome back');
    await screenshot(page, 'auto-captions-desktop');

    await result.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied!').first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      'Hey everyone, welcome back today we make fresh pasta',
    );

    const save = async (name: string) => {
      const [d] = await Promise.all([
        page.waitForEvent('download'),
        result.getByRole('button', { name, exact: true }).click(),
      ]);
      return { name: d.suggestedFilename(), text: fs.readFileSync((await d.path())!, 'utf8') };
    };
    const txt = await save('Download');
    expect(txt.name).toBe('Pasta_night_transcription.txt');
    expect(txt.text).toContain('[0:02 - 0:04] today we make fresh pasta');
    const srt = await save('SRT');
    expect(srt.name).toBe('Pasta_night_captions.srt');
    expect(srt.text).toContain('2\n00:00:02,000 --> 00:00:04,500\ntoday we make fresh pasta');
    const vtt = await save('WebVTT');
    expect(vtt.text.startsWith('WEBVTT\n\n00:00:00.500 --> 00:00:02.000\nHey everyone, welcome back')).toBe(true);

    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'auto-captions-mobile');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });

  it('transcribes speech offline and explains unsupported platforms', async () => {
    const v = tt.addVideo({
      desc: 'Cooking intro',
      media: { file: speechMp4(['Welcome to our cooking channel.', 'Thank you for watching this video.']) },
      duration: 6,
    });
    const { page } = await newPage(browser);
    await proUser(page, 'captions2');
    await page.goto(`${server.url}/auto-captions`);
    await page.getByLabel('Video URL').fill('https://www.facebook.com/watch/?v=123');
    await page.getByRole('button', { name: 'Generate Captions' }).click();
    await toast(page, 'Transcription failed').waitFor();
    await toast(page, 'Transcription failed')
      .getByText('Please provide a valid TikTok or Bluesky or Reddit URL')
      .waitFor();

    await page.getByLabel('Video URL').fill(v.url);
    await page.getByRole('button', { name: 'Generate Captions' }).click();
    await page.getByRole('button', { name: 'Generating...' }).waitFor();
    await page.getByTestId('captions-result').waitFor({ timeout: 60_000 });
    expect((await page.getByTestId('captions-fulltext').textContent())?.toLowerCase()).toContain('cooking channel');
    await page.getByText('Automatic transcription (suggestion, check before publishing)').waitFor();
  }, 90_000);
});

describe('batch download', () => {
  it('is locked for free users, and runs a pasted list live to a saved ZIP with a failed item shown', async () => {
    const free = await newPage(browser);
    await registerInBrowser(free.page, server.url, `batchfree${Date.now()}@example.com`);
    await free.page.goto(`${server.url}/batch`);
    await free.page.getByTestId('pro-upsell').waitFor();
    await free.context.close();

    const { page, context } = await newPage(browser);
    await proUser(page, 'batch');
    await page.goto(`${server.url}/batch`);
    await page.getByRole('heading', { name: 'Batch Download' }).waitFor();
    // Slow transfers, so the live states can be seen before they finish.
    const videos = [
      tt.addVideo({ desc: 'First clip', bytesPerSecond: 400_000 }),
      tt.addVideo({ desc: 'Second clip', bytesPerSecond: 400_000 }),
    ];
    const removed = tt.addError('deleted');
    await page
      .getByLabel('TikTok or Bluesky or Reddit links')
      .fill(`Look at these:\n${videos[0].url}\n${videos[1].url}, and ${removed}`);
    await page.getByTestId('batch-found').filter({ hasText: '3 links found' }).waitFor();
    await page.getByRole('button', { name: 'Start batch' }).click();
    await page.getByTestId('batch-progress').waitFor();
    await page
      .locator(
        '[data-testid="batch-items"] li[data-status="running"], [data-testid="batch-items"] li[data-status="queued"]',
      )
      .first()
      .waitFor();
    await page.getByTestId('batch-count').filter({ hasText: '2 of 3' }).waitFor({ timeout: 60_000 });
    const items = page.getByTestId('batch-items').locator('li');
    await expect
      .poll(() => items.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-status'))))
      .toEqual(['done', 'done', 'failed']);
    await items
      .nth(2)
      .getByText(/removed or does not exist/)
      .waitFor();
    await items.nth(0).getByText('First clip').waitFor();
    await screenshot(page, 'batch-desktop');

    const downloadEvent = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByRole('link', { name: 'Download ZIP' }).click();
    const download = await downloadEvent;
    const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'batch-')), download.suggestedFilename());
    await download.saveAs(saved);
    expect(path.basename(saved)).toMatch(/^batch-[0-9a-f]{8}\.zip$/);
    const names = (await zipEntries(fs.readFileSync(saved))).map((e) => e.name);
    expect(names).toEqual(videos.map((v) => `tiktok-fakecreator-${v.id}.mp4`));
    await context.close();
  });
});

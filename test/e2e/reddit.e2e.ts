// Reddit in Chromium (issue 44), against its fake (test/fakes/reddit/: the post's JSON, the DASH
// manifest and its real files): a person pastes a Reddit link, sees the card with every height,
// and saves the best one, which plays with its sound at that height (ffprobe reads the saved file).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  launchBrowser,
  newPage,
  registerInBrowser,
  screenshot,
  startServer,
  type RunningServer,
} from '../helpers/e2e.js';
import { FFPROBE } from '../fakes/media-samples.js';
import { startFakeReddit } from '../fakes/reddit/fake-reddit.js';
import { dashSet } from '../fakes/reddit/dash-media.js';

let server: RunningServer;
let browser: Browser;
let rd: Awaited<ReturnType<typeof startFakeReddit>>;

beforeAll(async () => {
  rd = await startFakeReddit();
  server = await startServer({ UPSTREAM_HOST_MAP: rd.hostMapJson });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await rd?.close();
});

describe('Reddit in the browser', () => {
  it('pastes a Reddit link, shows the card and saves the best height with its sound', async () => {
    const url = rd.addVideo('1e2e3e4', 'videos', dashSet({ heights: [720, 480, 240], seconds: 3, naming: 'CMAF' }));
    const { page, context } = await newPage(browser);
    await registerInBrowser(page, server.url, `reddit${Date.now()}@example.com`);
    await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill(`${url}?utm_source=share`);
    await page.getByTestId('url-valid').waitFor();
    await page.getByRole('button', { name: 'Fetch Video' }).click();
    await page.getByTestId('video-card').waitFor();
    expect(await page.getByTestId('video-title').textContent()).toBe('Video 1e2e3e4');
    const options = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: /^Download / }) });
    await expect.poll(() => options.count()).toBe(4); // 720p, 480p, 240p and the sound
    await screenshot(page, 'reddit-video-card');

    const event = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Download 720P' }).click();
    const download = await event;
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'reddit-dl-')), download.suggestedFilename());
    await download.saveAs(file);
    expect(path.basename(file)).toBe('reddit-videos-1e2e3e4.mp4');
    const probe = JSON.parse(
      execFileSync(FFPROBE, ['-v', 'error', '-print_format', 'json', '-show_streams', file], { encoding: 'utf8' }),
    ) as { streams: Array<{ codec_type: string; width?: number; height?: number }> };
    const picture = probe.streams.find((s) => s.codec_type === 'video');
    expect([picture?.width, picture?.height]).toEqual([1280, 720]);
    expect(probe.streams.some((s) => s.codec_type === 'audio')).toBe(true);
    await page.getByText('Download completed').first().waitFor();
    await context.close();
  }, 120_000);
});

// Media jobs as a creator sees them (issue 21): with the one media worker busy, the audio
// extractor and auto captions say the job is queued and its place in line, then that it runs,
// then show the result, without the creator doing anything.
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
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { speechMp4, toneMp4 } from '../fakes/media-samples.js';

let server: RunningServer;
let browser: Browser;
let tt: FakeTikTok;

beforeAll(async () => {
  tt = await startFakeTikTok();
  server = await startServer({ UPSTREAM_HOST_MAP: tt.hostMapJson, MEDIA_CONCURRENCY: '1' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tt?.close();
});

/** Fills the tool's link field and starts it. */
async function start(page: Page, tool: string, label: string, button: string, url: string) {
  await page.goto(`${server.url}/${tool}`);
  await page.getByLabel(label).fill(url);
  await page.getByRole('button', { name: button, exact: true }).click();
}

describe('media jobs in the browser', () => {
  it('shows queued, its place in line and running on the audio extractor and auto captions, then the results', async () => {
    const email = `jobs${Date.now()}@example.com`;
    const { context, page: first } = await newPage(browser);
    await registerInBrowser(first, server.url, email);
    expect((await server.cli(['user:grant-pro', email])).code).toBe(0);

    // A long extraction holds the only media worker: its download ends only when this test says so
    // (a pace alone let it finish before the third page looked, on a busy machine).
    let release = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    const slow = tt.addVideo({ desc: 'Long one', media: { file: toneMp4(30) }, duration: 30, lastByteAfter: released });
    await start(first, 'audio-extractor', 'TikTok or Bluesky or Reddit video URL', 'Extract', slow.url);
    await first.getByRole('button', { name: 'Extracting...' }).waitFor();
    await expect.poll(() => tt.transfers.some((x) => x.path.includes(`/${slow.id}/`)), { timeout: 10_000 }).toBe(true);

    const second = await context.newPage();
    const short = tt.addVideo({ desc: 'Short one', media: { file: toneMp4(4) }, duration: 4 });
    await start(second, 'audio-extractor', 'TikTok or Bluesky or Reddit video URL', 'Extract', short.url);
    await second.getByRole('button', { name: 'Queued: next...' }).waitFor({ timeout: 10_000 });
    await second.getByTestId('job-progress').getByText('Waiting for a free media worker').waitFor();
    await screenshot(second, 'media-job-queued');

    const third = await context.newPage();
    const spoken = tt.addVideo({
      desc: 'Spoken',
      media: { file: speechMp4(['Welcome to our cooking channel.']) },
      duration: 3,
    });
    await start(third, 'auto-captions', 'Video URL', 'Generate Captions', spoken.url);
    await third.getByRole('button', { name: 'Queued: 1 ahead...' }).waitFor({ timeout: 10_000 });
    expect(await first.getByRole('button', { name: 'Extracting...' }).count()).toBe(1);
    release();

    // The queue moves on by itself: the second page's job runs, then its card appears.
    await first.getByTestId('audio-result').waitFor({ timeout: 60_000 });
    await second.getByTestId('audio-result').waitFor({ timeout: 60_000 });
    expect(await second.getByTestId('audio-result').getByRole('heading').textContent()).toBe('Short one');
    expect(await second.getByTestId('job-progress').textContent()).toBe('');
    await third.getByTestId('captions-result').waitFor({ timeout: 60_000 });
    expect((await third.getByTestId('captions-fulltext').textContent())?.toLowerCase()).toContain('cooking');
    await context.close();
  }, 120_000);
});

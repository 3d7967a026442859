// The repost kit as a free creator uses it (issue 47), in Chromium against the fake TikTok: a pasted
// link, the cards as they will look, targets ticked, a cover picked on the scrubber, the kit made by
// its media job, and the ZIP read back: each target's text within its rules and its video (ffprobe).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
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
import { zipEntries } from '../helpers/zip.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { FFPROBE, toneMp4 } from '../fakes/media-samples.js';
import { REPOST_TARGET_LIMITS } from '../../src/shared/platform-limits.js';
import { fitsRules, hashtagsIn } from '../../src/shared/repost-texts.js';

let server: RunningServer;
let browser: Browser;
let tt: FakeTikTok;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-repost-e2e-'));

beforeAll(async () => {
  tt = await startFakeTikTok();
  server = await startServer({ UPSTREAM_HOST_MAP: tt.hostMapJson });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await tt?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function probe(bytes: Buffer, name: string) {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, bytes);
  const out = JSON.parse(
    execFileSync(FFPROBE, ['-v', 'error', '-of', 'json', '-show_streams', '-show_format', file], { encoding: 'utf8' }),
  ) as {
    streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number }>;
    format: { duration: string };
  };
  return { streams: out.streams, duration: Number(out.format.duration) };
}

describe('repost kit', () => {
  it('goes from a pasted link, ticked targets and a picked cover to the ZIP', async () => {
    const source = toneMp4(6, { faststart: true });
    const v = tt.addVideo({
      desc: 'Fresh pasta in five minutes, no machine needed. Flour, eggs, a rolling pin. #pasta #cooking',
      media: { file: source },
      duration: 6,
      user: 'nonna.cooks',
    });
    const { page } = await newPage(browser);
    await registerInBrowser(page, server.url, `repost${Date.now()}@example.com`);
    await page.goto(`${server.url}/repost-kit`);
    await page.getByRole('heading', { name: 'Repost Kit' }).waitFor();
    await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill(v.url);
    await page.getByRole('button', { name: 'Prepare' }).click();

    // The cards as they will look, the credit naming the author with the link.
    await page.getByTestId('card-reels').waitFor();
    expect(await page.getByTestId('credit-line').textContent()).toContain('@nonna.cooks');
    expect(await page.getByTestId('title-shorts').textContent()).toContain('Fresh pasta');
    // Tick: all but Bluesky.
    await page.getByRole('checkbox', { name: REPOST_TARGET_LIMITS.bluesky.label, exact: true }).uncheck();
    await page.getByTestId('card-bluesky').waitFor({ state: 'detached' });
    // The cover: a frame picked on the scrubber.
    await page.getByLabel(/Frame at/).fill('2.5');
    expect(await page.getByTestId('cover-at-value').textContent()).toBe('2.5');
    // The player shows that frame (the clip the downloader's card plays).
    await page.waitForFunction(() => {
      const v = document.querySelector<HTMLVideoElement>('[data-testid="cover-video"]');
      return !!v && v.readyState >= 2 && Math.abs(v.currentTime - 2.5) < 0.2;
    });
    await screenshot(page, 'repost-kit-cards');

    await page.getByRole('button', { name: 'Make the kit' }).click();
    const zipLink = page.getByTestId('kit-zip');
    await zipLink.waitFor({ timeout: 60_000 });
    await page.getByTestId('files-reels').waitFor();
    await page.getByText('Free (1/6)').first().waitFor();
    await zipLink.scrollIntoViewIfNeeded();
    await screenshot(page, 'repost-kit-done');

    const href = (await zipLink.getAttribute('href'))!;
    const res = await page.context().request.get(`${server.url}${href}`);
    expect(res.status()).toBe(200);
    const zip = await zipEntries(Buffer.from(await res.body()));
    const folders = [...new Set(zip.map((e) => e.name.split('/')[0]))].sort();
    expect(folders).toEqual(['reels', 'shorts', 'tiktok']);
    for (const target of ['reels', 'shorts', 'tiktok'] as const) {
      const text = zip
        .find((e) => e.name === `${target}/caption.txt`)!
        .bytes.toString('utf8')
        .trim();
      const rules = REPOST_TARGET_LIMITS[target].caption;
      expect(fitsRules(rules, text)).toBe(true);
      expect(text.startsWith('Fresh pasta in five minutes')).toBe(true);
      expect(text).toContain(v.url);
      expect(hashtagsIn(text)).toContain('#pasta');
      expect(hashtagsIn(text).length).toBeLessThanOrEqual(rules.hashtagLimit);
      const video = zip.find((e) => e.name.startsWith(`${target}/`) && e.name.endsWith('.mp4'))!;
      const probed = probe(video.bytes, `${target}.mp4`);
      expect(probed.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
      expect(probed.duration).toBeGreaterThan(5.5);
      // The file as it is: every target here takes an H.264 MP4 with its index first.
      expect(video.bytes.equals(fs.readFileSync(source))).toBe(true);
      const cover = probe(zip.find((e) => e.name === `${target}/cover.jpg`)!.bytes, `${target}.jpg`);
      expect([cover.streams[0].width, cover.streams[0].height]).toEqual([1080, 1920]);
    }
  });
});

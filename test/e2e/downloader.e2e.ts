// The downloader as a creator uses it, in Chromium, against the fake TikTok: paste a link, fetch,
// see the card, preview, download with real progress, find the file saved, reach the limit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
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
import { createPostgresDatabase } from '../helpers/test-db.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { aacSound, FFPROBE, hevcVideoOnly } from '../fakes/media-samples.js';
import { solidJpeg, toneMp3 } from '../fakes/tiktok/photo.js';
import { execFileSync } from 'node:child_process';

let server: RunningServer;
let browser: Browser;
let tt: FakeTikTok;
let database: { url: string; drop(): Promise<void> };

beforeAll(async () => {
  tt = await startFakeTikTok();
  database = await createPostgresDatabase();
  server = await startServer({
    DATABASE_URL: database.url,
    UPSTREAM_HOST_MAP: tt.hostMapJson,
    VIDEO_INFO_PER_MINUTE: '1000',
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await database?.drop();
  await tt?.close();
});

async function setDownloadCount(email: string, count: number) {
  const c = new pg.Client({ connectionString: database.url });
  await c.connect();
  await c.query('update users set download_count = $1 where email = $2', [count, email]);
  await c.end();
}

async function fetchVideo(page: Page, url: string) {
  await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill(url);
  await page.getByTestId('url-valid').waitFor();
  await page.getByRole('button', { name: 'Fetch Video' }).click();
  await page.getByTestId('video-card').waitFor();
}

describe('downloader', () => {
  it('validates, fetches, previews and downloads with real progress, then reaches the limit', async () => {
    const { page, context } = await newPage(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const email = `dl${Date.now()}@example.com`;
    await registerInBrowser(page, server.url, email);
    await page.getByRole('heading', { name: 'Download TikTok Videos Instantly' }).waitFor();

    // URL states: invalid shows the message and keeps the button disabled.
    await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill('https://www.youtube.com/watch?v=1');
    await page.getByText('Please enter a valid TikTok or Bluesky or Reddit video URL').waitFor();
    expect(await page.getByRole('button', { name: 'Fetch Video' }).isDisabled()).toBe(true);

    // Paste from the clipboard: a valid link is fetched at once (signed in; the real captured page).
    await page.evaluate((u) => navigator.clipboard.writeText(u), `${tt.fixtureUrl}?is_from_webapp=1`);
    await page.getByRole('button', { name: 'Paste from clipboard' }).click();
    await page.getByTestId('video-card').waitFor();
    await page.getByTestId('url-valid').waitFor();
    await page.getByText('Video fetched successfully').first().waitFor();
    expect(await page.getByTestId('video-title').textContent()).toMatch(/^Digital marketing will be DEAD by 2027/);
    expect(await page.getByTestId('video-author').textContent()).toBe('@tjrobertson52');
    expect(await page.getByTestId('video-duration').textContent()).toBe('4:11');
    expect(await page.getByTestId('video-views').textContent()).toBe('71.4K views');
    expect(await page.getByTestId('video-likes').textContent()).toBe('1.8K likes');
    await page.getByText('68.8 MB').waitFor(); // hd size from DataSize
    await screenshot(page, 'downloader-card-desktop');

    // Inline preview through our own stream endpoint.
    await page.getByRole('button', { name: 'Play preview' }).click();
    const video = page.getByTestId('video-preview');
    await video.waitFor();
    expect(await video.getAttribute('src')).toMatch(/^\/api\/video\/stream\/7504044860782021930\?t=\d+\.[\w-]{43}$/);
    await page.waitForFunction(
      () =>
        ((document.querySelector('[data-testid="video-preview"]') as HTMLVideoElement | null)?.readyState ?? 0) >= 2,
    );
    await page.getByRole('button', { name: 'Close preview' }).click();
    await page.getByRole('button', { name: 'Play preview' }).waitFor();

    // Download a larger, throttled file: the progress card shows real bytes, the file is saved.
    // Its last byte waits until the progress card was seen, however busy the machine.
    let release = () => {};
    const seen = new Promise<void>((r) => {
      release = r;
    });
    const big = tt.addVideo({
      desc: 'Big one',
      media: { size: 6_000_000 },
      bytesPerSecond: 3_000_000,
      lastByteAfter: seen,
    });
    await fetchVideo(page, big.url);
    const downloadEvent = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Download HD' }).click();
    await page.getByTestId('download-progress').waitFor();
    await page.waitForFunction(() =>
      /^[1-9]\d?%$/.test(document.querySelector('[data-testid="progress-percent"]')?.textContent ?? ''),
    );
    expect(await page.getByTestId('progress-bytes').textContent()).toMatch(/^\d+\.\d MB of 5\.7 MB$/);
    expect(await page.getByTestId('progress-speed').textContent()).toMatch(/MB\/s$/);
    await screenshot(page, 'downloader-progress-desktop');
    release();
    const download = await downloadEvent;
    // Saved under the name the server gave the file (one naming rule, decision 0094).
    expect(download.suggestedFilename()).toBe(`tiktok-fakecreator-${big.id}.mp4`);
    const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dl-')), download.suggestedFilename());
    await download.saveAs(saved);
    expect(fs.statSync(saved).size).toBe(6_000_000);
    await page.getByText('Download completed').first().waitFor();
    await page.getByTestId('video-card').waitFor();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="plan-badge"]')?.textContent === 'Free (1/6)',
    );
    await page.getByTestId('recent-list').getByText('Big one').waitFor();

    // The sixth download (5 made before) opens the upgrade modal; after it the limit toast shows.
    await setDownloadCount(email, 5);
    await page.reload();
    const small = tt.addVideo({ desc: 'Last free one' });
    await fetchVideo(page, small.url);
    const last = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download HD' }).click();
    await last;
    await page.getByRole('heading', { name: 'Upgrade to Pro' }).waitFor();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="plan-badge"]')?.textContent === 'Free (6/6)',
    );
    await screenshot(page, 'downloader-upgrade-modal');
    await page.getByRole('button', { name: 'Maybe Later' }).click();
    // No downloads left: the button says so and opens the upgrade modal again.
    await page.getByRole('button', { name: 'Upgrade to download HD' }).click();
    await page.getByRole('heading', { name: 'Upgrade to Pro' }).waitFor();
    await page.getByText('Upgrade to continue').waitFor();
    await context.close();
  });

  it('downloads 1080p HEVC with its sound from the card, each option naming its codec', async () => {
    const { page, context } = await newPage(browser);
    await registerInBrowser(page, server.url, `hevc${Date.now()}@example.com`);
    const v = tt.addVideo({
      desc: 'Sharp one',
      // Paced so the progress of the streamed remux (issue 38) is on screen for a while.
      bytesPerSecond: 300_000,
      hevc: {
        gears: { '1080p': hevcVideoOnly(1080, 1920, 3), '720p': hevcVideoOnly(720, 1280, 3) },
        sounds: [aacSound(3)],
      },
    });
    await fetchVideo(page, v.url);
    const codecs = await page.getByTestId('option-codec').allTextContents();
    expect(codecs.map((c) => c.trim())).toEqual([
      '· HEVC · sharpest',
      '· HEVC · sharpest',
      '· H.264 · plays everywhere',
      '· H.264 · plays everywhere',
      '· AAC 97 kbit/s · the original sound, as TikTok stores it',
    ]);
    await screenshot(page, 'downloader-card-hevc-desktop');
    const downloadEvent = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Download 1080P' }).click();
    // Sent while it is made: progress against the size expected from its parts, said to be an estimate.
    await page.waitForFunction(() =>
      /^\d+\.\d MB of about 1\.\d MB$/.test(
        document.querySelector('[data-testid="progress-bytes"]')?.textContent ?? '',
      ),
    );
    const download = await downloadEvent;
    const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dl-')), download.suggestedFilename());
    await download.saveAs(saved);
    const probed = JSON.parse(
      execFileSync(FFPROBE, ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', saved], {
        encoding: 'utf8',
      }),
    );
    const streams = probed.streams;
    expect(streams.map((st: { codec_name: string }) => st.codec_name).sort()).toEqual(['aac', 'hevc']);
    const picture = streams.find((st: { codec_type: string }) => st.codec_type === 'video');
    expect([picture.width, picture.height]).toEqual([1080, 1920]);
    expect(Number(probed.format.duration)).toBeGreaterThan(2.8);
    await page.getByText('Download completed').first().waitFor();
    await context.close();
  });

  it('shows the failure toast for a removed video and works at 375px', async () => {
    const { page, context } = await newPage(browser, { width: 375, height: 800 });
    await registerInBrowser(page, server.url, `m${Date.now()}@example.com`);
    await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill(tt.addError('deleted'));
    await page.getByRole('button', { name: 'Fetch Video' }).click();
    await page.getByText('Video Not Available').first().waitFor();
    await page
      .getByText(/removed or does not exist/)
      .first()
      .waitFor();
    await fetchVideo(page, tt.fixtureUrl);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'downloader-card-mobile');
    await context.close();
  });

  it('shows a photo post as a strip and saves one photo, the ZIP and the slideshow', async () => {
    const { page, context } = await newPage(browser);
    await registerInBrowser(page, server.url, `photo${Date.now()}@example.com`);
    const p = tt.addPhotoPost({
      desc: 'Four photos',
      slides: ['ff0000', '00c000', '0000ff', 'ffff00'].map((c) => solidJpeg(c, 1080, 1440)),
      sound: toneMp3(4),
    });
    await fetchVideo(page, p.url.replace('/video/', '/photo/'));
    const strip = page.getByTestId('photo-strip');
    await expect
      .poll(() => strip.locator('img').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth)))
      .toEqual([1080, 1080, 1080, 1080]);
    expect(await page.getByTestId('option-codec').allTextContents()).toEqual([
      ' · ZIP of 4 photos, originals',
      ' · MP4 slideshow over the sound · plays everywhere',
      ' · MP3 · the original sound, as TikTok stores it',
    ]);
    await strip.scrollIntoViewIfNeeded();
    await screenshot(page, 'downloader-card-photo-desktop');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dl-'));
    const saveVia = async (click: () => Promise<void>) => {
      const event = page.waitForEvent('download', { timeout: 30_000 });
      await click();
      const download = await event;
      const file = path.join(dir, download.suggestedFilename());
      await download.saveAs(file);
      return file;
    };
    const one = await saveVia(() => page.getByRole('link', { name: 'Save photo 3' }).click());
    expect(path.basename(one)).toBe(`tiktok-fakephotographer-${p.id}-03.jpg`);
    expect(fs.readFileSync(one).equals(fs.readFileSync(p.slides[2]))).toBe(true);

    const zip = await saveVia(() => page.getByRole('button', { name: 'Download IMAGES' }).click());
    expect(path.basename(zip)).toBe(`tiktok-fakephotographer-${p.id}-photos.zip`);
    const names = (await zipEntries(fs.readFileSync(zip))).map((e) => e.name);
    expect(names).toEqual(['01.jpg', '02.jpg', '03.jpg', '04.jpg']);
    await page.getByText('Your photos were saved.').first().waitFor();

    const show = await saveVia(() => page.getByRole('button', { name: 'Download SLIDESHOW' }).click());
    const probe = JSON.parse(
      execFileSync(FFPROBE, ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', show], {
        encoding: 'utf8',
      }),
    );
    expect(probe.streams.map((st: { codec_name: string }) => st.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(Number(probe.format.duration)).toBeGreaterThan(3.8);
    await page.getByText('Your video was saved.').first().waitFor();
    await context.close();
  });

  it('a picture of a download link on this site spends nothing; the person clicking the link does (issue 34)', async () => {
    const { page, context } = await newPage(browser);
    await registerInBrowser(page, server.url, `img${Date.now()}@example.com`);
    const info = await page.evaluate(async (url) => {
      const res = await fetch('/api/video/info', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
      });
      return res.json();
    }, tt.addVideo().url);
    const hd: string = info.downloadOptions.find((o: { quality: string }) => o.quality === 'hd').url;
    const used = () =>
      page.evaluate(async () => (await (await fetch('/api/subscription/status')).json()).downloadCount as number);
    expect(await used()).toBe(0);
    // What a public post's Markdown image became: an <img> on this site, sent with the reader's cookie.
    const answered = page.waitForResponse((r) => r.url().includes('/api/video/download'));
    await page.evaluate((src) => {
      const img = document.createElement('img');
      img.src = src;
      img.alt = 'a post picture';
      document.body.append(img);
    }, hd);
    expect((await answered).status()).toBe(403);
    expect(await used()).toBe(0);
    // The same link as the person's own <a download>, clicked: one download, counted.
    await page.evaluate((href) => {
      const a = document.createElement('a');
      a.href = href;
      a.download = '';
      a.textContent = 'Save this video';
      document.body.prepend(a);
    }, hd);
    const saved = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByRole('link', { name: 'Save this video' }).click();
    const download = await saved;
    expect(download.suggestedFilename()).toMatch(/^tiktok-.+\.mp4$/);
    expect(await download.failure()).toBeNull();
    await expect.poll(used).toBe(1);
    await context.close();
  });

  it('offers the original sound as TikTok stores it and the cover, animated cover and avatar as files', async () => {
    const { page, context } = await newPage(browser);
    await registerInBrowser(page, server.url, `sound${Date.now()}@example.com`);
    const sound = aacSound(3);
    const v = tt.addVideo({ desc: 'Listen', hevc: { gears: { '1080p': null, '720p': null }, sounds: [sound] } });
    await fetchVideo(page, v.url);
    expect(await page.getByTestId('sound-note').textContent()).toBe(
      'A 192 kbit/s MP3 of this sound is larger, not better: TikTok stores it at about 64–128 kbit/s.',
    );
    const pictures = page.getByTestId('post-pictures');
    expect(await pictures.getByRole('link').allTextContents()).toEqual(['Cover', 'Animated cover', "Author's picture"]);
    await pictures.scrollIntoViewIfNeeded();
    await screenshot(page, 'downloader-card-sound-desktop');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dl-'));
    const saveVia = async (click: () => Promise<void>) => {
      const event = page.waitForEvent('download', { timeout: 30_000 });
      await click();
      const download = await event;
      const file = path.join(dir, download.suggestedFilename());
      await download.saveAs(file);
      return file;
    };
    const m4a = await saveVia(() => page.getByRole('button', { name: 'Download SOUND' }).click());
    expect(path.basename(m4a)).toBe(`tiktok-fakecreator-${v.id}-sound.m4a`);
    expect(fs.readFileSync(m4a).equals(fs.readFileSync(sound))).toBe(true); // copied, not re-encoded
    const cover = await saveVia(() => pictures.getByRole('link', { name: 'Cover', exact: true }).click());
    expect(path.basename(cover)).toBe(`tiktok-fakecreator-${v.id}-cover.jpg`);
    const avatar = await saveVia(() => pictures.getByRole('link', { name: "Author's picture" }).click());
    expect(path.basename(avatar)).toBe(`tiktok-fakecreator-${v.id}-avatar.jpg`);
    expect(fs.statSync(avatar).size).toBeGreaterThan(100);
    await context.close();
  });
});

// Whole Bluesky profiles and a post's replies in Chromium (issue 45), against the fake AppView:
// a Pro person pastes a profile link, sees its posts with thumbnails, loads more, selects some,
// gets one ZIP of them (read back entry by entry); then exports a post's replies as CSV and reads
// the file back as a spreadsheet would.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  launchBrowser,
  newPage,
  registerProInBrowser,
  screenshot,
  startServer,
  type RunningServer,
} from '../helpers/e2e.js';
import { zipEntries } from '../helpers/zip.js';
import { startFakeBluesky, type FakeBluesky } from '../fakes/bluesky/fake-bluesky.js';
import { postView, tid } from '../fakes/bluesky/constructed-posts.js';

let server: RunningServer;
let browser: Browser;
let bs: FakeBluesky;

beforeAll(async () => {
  bs = await startFakeBluesky();
  server = await startServer({ UPSTREAM_HOST_MAP: bs.hostMapJson, VIDEO_INFO_PER_MINUTE: '1000' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await bs?.close();
});

async function save(page: Page, click: () => Promise<void>) {
  const event = page.waitForEvent('download', { timeout: 60_000 });
  await click();
  const download = await event;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bsky-prof-')), download.suggestedFilename());
  await download.saveAs(file);
  return file;
}

describe('Bluesky profiles in the browser', () => {
  it('lists a pasted profile, loads more, and saves a selection as one ZIP (Pro)', async () => {
    const { page, context } = await newPage(browser);
    const email = `bskyprof${Date.now()}@example.com`;
    await registerProInBrowser(page, server, email);
    const { url, author } = bs.addProfile({ posts: 60, reposts: 4 });
    await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill(url);
    await page.getByTestId('url-valid').waitFor();
    await page.getByRole('button', { name: 'Fetch Video' }).click();
    const list = page.getByTestId('profile-list');
    await list.waitFor();
    await expect.poll(() => page.getByTestId('profile-post').count()).toBe(46); // 50 asked, its 4 reposts left out
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => page.getByTestId('profile-post').count()).toBe(60);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    const first = page.getByTestId('profile-post').first();
    expect(await first.textContent()).toContain(`Post number 64 of ${author.handle}`);
    await expect
      .poll(() => first.locator('img').evaluate((i) => (i as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    await page.getByTestId('select-all').check();
    expect(await page.getByTestId('selected-count').textContent()).toBe('60 of 60 selected');
    await page.getByTestId('select-all').uncheck();
    for (const n of [0, 1, 2]) await page.getByTestId('profile-post').nth(n).getByRole('checkbox').check();
    expect(await page.getByTestId('selected-count').textContent()).toBe('3 of 60 selected');
    await screenshot(page, 'bluesky-profile-list');
    await page.getByRole('button', { name: 'Download selected as ZIP' }).click();
    const zipLink = page.getByTestId('profile-batch-zip');
    await zipLink.waitFor({ timeout: 90_000 });
    await screenshot(page, 'bluesky-profile-batch');
    const zip = await save(page, () => zipLink.click());
    const entries = await zipEntries(fs.readFileSync(zip));
    expect(entries.length).toBe(3);
    for (const e of entries)
      expect(e.name).toMatch(new RegExp(`^bluesky-${author.handle.replaceAll('.', '\\.')}-plc-`));
    // The batch screen takes the profile link too and lists the same posts to pick from.
    await page.goto(`${server.url}/batch`);
    await page.getByLabel('TikTok or Bluesky or Reddit links').fill(`all of ${url} please`);
    await expect.poll(() => page.getByTestId('profile-post').count()).toBe(46);
    await context.close();
  }, 180_000);

  it("exports a post's replies as a CSV a spreadsheet reads back (Pro)", async () => {
    const { page, context } = await newPage(browser);
    const email = `bskyrep${Date.now()}@example.com`;
    await registerProInBrowser(page, server, email);
    const { profile } = bs.addProfile({ posts: 1 });
    const root = profile.feed[0].post;
    const fan = { did: 'did:plc:fanaaaaaaaaaaaaaaaaaaaaa', handle: 'fan.bsky.social', displayName: 'Fan' };
    bs.social.setReplies(root.uri, [
      {
        $type: 'app.bsky.feed.defs#threadViewPost',
        post: postView(fan, tid(9100), '@everyone look, "quoted"', undefined, undefined),
        replies: [],
      },
    ]);
    const url = `https://bsky.app/profile/${root.author.did}/post/${root.uri.split('/').pop()}`;
    await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill(url);
    await page.getByRole('button', { name: 'Fetch Video' }).click();
    await page.getByTestId('video-card').waitFor();
    const csv = await save(page, () => page.getByRole('button', { name: 'Export replies (CSV)' }).click());
    expect(path.basename(csv)).toMatch(/-replies\.csv$/);
    const text = fs.readFileSync(csv, 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const [header, row] = text.slice(1).split('\r\n');
    expect(header.split(',').slice(0, 5)).toEqual([
      '"state"',
      '"author_handle"',
      '"author_id"',
      '"display_name"',
      '"text"',
    ]);
    expect(row).toContain(
      '"ok","fan.bsky.social","did:plc:fanaaaaaaaaaaaaaaaaaaaaa","Fan","\'@everyone look, ""quoted"""',
    );
    await page.getByText('Replies saved').first().waitFor();
    await screenshot(page, 'bluesky-replies-export');
    await context.close();
  }, 120_000);
});

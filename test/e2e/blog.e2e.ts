// The blog as people see it: write, refuse a clash, publish, read signed out (with link-preview
// tags in the HTML itself), and delete.
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

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Waits for a toast reading `text` (one toast shows at a time; a new one replaces the last). */
async function expectToast(page: Page, ...texts: string[]): Promise<void> {
  let toast = page.getByTestId('toast');
  for (const t of texts) toast = toast.filter({ hasText: t });
  await toast.first().waitFor();
}

const CONTENT = `## Why hooks matter

The first **two seconds** decide everything.

- Start with motion
- Put text on screen

![ ](/api/video/download?url=https://www.tiktok.com/@a/video/7300000000000000001&quality=hd)

<img src="x" onerror="window.__xss = 1">
<script>window.__xss = 2</script>
[click me](javascript:window.__xss=3)`;

describe('blog', () => {
  it('writes, publishes, shows the post signed out, and deletes it', async () => {
    const { page, context } = await newPage(browser);
    await registerInBrowser(page, server.url, `blogger-${Date.now()}@example.com`);
    await page.getByRole('link', { name: 'Blog', exact: true }).first().click();
    await page.waitForURL(`${server.url}/blog`);
    await page.getByRole('heading', { name: 'My Blog' }).waitFor();
    await page.getByRole('heading', { name: 'Write New Post' }).waitFor();
    await page.getByText('No posts yet').waitFor();

    // Required fields are checked before anything is sent.
    await page.getByRole('button', { name: 'Create Post' }).click();
    await expectToast(page, 'Missing required fields', 'Please fill in title and content');

    await page.getByLabel('Title').fill('Hooks That Keep Viewers: 5 Tips!');
    await page.getByLabel('Content').fill(CONTENT);
    await page.getByLabel('Excerpt').fill('Five ways to hold attention in the first seconds.');
    expect(await page.getByText('Address: /blog/hooks-that-keep-viewers-5-tips').isVisible()).toBe(true);
    await page.getByLabel('Status').selectOption('published');
    // An address that cannot load: the list shows the 'Invalid Image URL' placeholder.
    await page.getByLabel('Featured Image URL').fill('https://127.0.0.1:9/missing.png');
    await page.getByLabel('Tags').fill(' hooks, , retention ,');
    await page.getByRole('button', { name: 'Create Post' }).click();
    await expectToast(page, 'Post created successfully');
    const row = page.getByTestId('blog-post').first();
    await row.getByText('Hooks That Keep Viewers: 5 Tips!').waitFor();
    await row.getByText('Published').waitFor();
    await row.getByText('Invalid Image URL').waitFor();
    expect(await row.getByText('retention').isVisible()).toBe(true);
    // The form was reset.
    expect(await page.getByLabel('Title').inputValue()).toBe('');
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, 'blog-my-blog-desktop');

    // The same slug again: a clear 409 shown by the form.
    await page.getByLabel('Title').fill('Another post');
    await page.getByLabel('Content').fill('Body');
    await page.getByLabel('Slug').fill('hooks-that-keep-viewers-5-tips');
    await page.getByRole('button', { name: 'Create Post' }).click();
    await expectToast(page, 'Error creating post', 'That slug is already in use');
    await page.getByRole('alert').filter({ hasText: 'That slug is already in use' }).waitFor();
    expect(await page.getByTestId('blog-post').count()).toBe(1);

    // Signed out, in a fresh browser context.
    const visitor = await newPage(browser);
    const postUrl = `${server.url}/blog/hooks-that-keep-viewers-5-tips`;
    await visitor.page.goto(postUrl);
    await visitor.page.getByRole('heading', { name: 'Hooks That Keep Viewers: 5 Tips!' }).waitFor();
    await visitor.page.getByRole('heading', { name: 'Why hooks matter' }).waitFor();
    expect(await visitor.page.getByTestId('post-content').locator('strong').innerText()).toBe('two seconds');
    expect(await visitor.page.getByTestId('post-content').locator('li').count()).toBe(2);
    expect(await visitor.page.getByTestId('post-tag').allInnerTexts()).toEqual(['hooks', 'retention']);
    // Readers do not see the author's 'Invalid Image URL' placeholder: the broken image is hidden.
    await visitor.page.waitForFunction(() => !document.querySelector('img[src="https://127.0.0.1:9/missing.png"]'));
    expect(await visitor.page.getByText('Invalid Image URL').count()).toBe(0);
    expect(await visitor.page.getByRole('link', { name: 'Sign In' }).isVisible()).toBe(true);
    const link = visitor.page.getByTestId('post-content').getByText('click me');
    if ((await link.count()) > 0) expect(await link.getAttribute('href')).toBeNull();
    expect(await visitor.page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    // A picture pointing at this site's own routes gets no address: readers' browsers never call them.
    const sources = await visitor.page
      .getByTestId('post-content')
      .locator('img')
      .evaluateAll((imgs) => imgs.map((i) => i.getAttribute('src')));
    expect(sources.filter((s) => s && !s.startsWith('/api/images?'))).toEqual([]);
    expect(await visitor.page.title()).toBe('Hooks That Keep Viewers: 5 Tips! | Social Media Toolkit');
    await screenshot(visitor.page, 'blog-public-post-desktop');
    await visitor.page.setViewportSize({ width: 375, height: 800 });
    await screenshot(visitor.page, 'blog-public-post-mobile');
    expect(await visitor.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // Link previews: the HTML itself carries the title, description and og: tags.
    const html = await (await fetch(postUrl, { headers: { 'user-agent': 'facebookexternalhit/1.1' } })).text();
    expect(html).toContain('<title>Hooks That Keep Viewers: 5 Tips! | Social Media Toolkit</title>');
    expect(html).toContain('<meta name="description" content="Five ways to hold attention in the first seconds." />');
    expect(html).toContain('<meta property="og:title" content="Hooks That Keep Viewers: 5 Tips!" />');
    expect(html).toContain(
      `<meta property="og:url" content="${server.env.PUBLIC_URL ?? `http://localhost:${server.env.PORT}`}` +
        `/blog/hooks-that-keep-viewers-5-tips" />`,
    );
    expect(html).toContain('<div id="root"></div>');

    // Mobile view of the management screen.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('heading', { name: 'My Blog' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'blog-my-blog-mobile');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 800 });

    // A published post stays editable: the change shows on its public page.
    await page.getByRole('button', { name: 'Edit Hooks That Keep Viewers: 5 Tips!' }).click();
    await page.getByRole('heading', { name: 'Edit Post' }).waitFor();
    expect(await page.getByLabel('Status').inputValue()).toBe('published');
    expect(await page.getByLabel('Tags').inputValue()).toBe('hooks, retention');
    await page.getByLabel('Title').fill('Hooks That Keep Viewers: 6 Tips!');
    await screenshot(page, 'blog-edit-published');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Post updated');
    await page.getByRole('heading', { name: 'Write New Post' }).waitFor();
    await row.getByText('Hooks That Keep Viewers: 6 Tips!').waitFor();
    await row.getByText('Published').waitFor();
    await visitor.page.reload();
    await visitor.page.getByRole('heading', { name: 'Hooks That Keep Viewers: 6 Tips!' }).waitFor();

    // Delete (confirmed), then the public page is gone too.
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Delete Hooks That Keep Viewers: 6 Tips!' }).click();
    await expectToast(page, 'Post deleted');
    await page.getByText('No posts yet').waitFor();
    await visitor.page.reload();
    await visitor.page.getByRole('heading', { name: 'Post not found' }).waitFor();
    const gone = await fetch(postUrl);
    expect(await gone.text()).not.toContain('og:title');

    await visitor.context.close();
    await context.close();
  });

  it('opens a published post signed in, inside the app shell', async () => {
    const { page, context } = await newPage(browser);
    await registerInBrowser(page, server.url, `reader-${Date.now()}@example.com`);
    const res = await page.request.post(`${server.url}/api/blog/posts`, {
      data: { title: 'Shell Post', content: 'Hello *there*', status: 'published' },
      headers: { origin: server.url },
    });
    expect(res.status()).toBe(201);
    await page.goto(`${server.url}/blog/shell-post`);
    await page.getByRole('heading', { name: 'Shell Post' }).waitFor();
    await page.getByTestId('nav-bar').waitFor();
    expect(await page.getByTestId('post-content').locator('em').innerText()).toBe('there');
    await page.goto(`${server.url}/blog/not-a-post`);
    await page.getByRole('heading', { name: 'Post not found' }).waitFor();
    await context.close();
  });
});

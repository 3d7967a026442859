// Issue 38, first screens before the JavaScript (decision 0074): the landing page and sign-in come
// from the server as HTML showing the screen, then React hydrates them without a mismatch.
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

let server: RunningServer;
let browser: Browser;
let tt: FakeTikTok;

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

/** Text of the HTML as sent (tags dropped): what a browser paints before any script. */
const visibleText = (html: string) =>
  html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

/** Console errors and uncaught exceptions of a page (React reports a hydration mismatch there). */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/**
 * Records, from the end of parsing, every change React or anything else makes inside the
 * elements `selector` matches: the static sections are kept as the server sent them (decision 0078).
 */
async function watchStatic(page: Page, selector: string): Promise<() => Promise<string[]>> {
  await page.addInitScript((sel) => {
    const seen: string[] = [];
    (window as unknown as { __staticChanges: string[] }).__staticChanges = seen;
    let parsed = false;
    const observer = new MutationObserver((records) => {
      if (!parsed) return;
      for (const r of records) {
        const el = r.target instanceof Element ? r.target : r.target.parentElement;
        if (el?.closest(sel)) seen.push(`${r.type} in <${el.tagName.toLowerCase()}> ${el.textContent?.slice(0, 40)}`);
      }
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    // The parser's own insertions are not changes: count from the end of parsing, which comes
    // before any module script runs.
    document.addEventListener('readystatechange', () => {
      if (parsed) return;
      observer.takeRecords();
      parsed = true;
    });
  }, selector);
  return () => page.evaluate(() => (window as unknown as { __staticChanges: string[] }).__staticChanges);
}

/** The static sections' text as the browser shows it, in order. */
const sectionsText = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));

/** Whether React holds the first element `selector` matches (it tags the nodes it renders or hydrates). */
const reactHolds = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => Object.keys(el).some((k) => k.startsWith('__reactFiber')));

const LANDING_STATIC = '#root header, main > section:not(:first-child), footer';
const DOWNLOADER_STATIC =
  'main > div.text-center, ul[aria-label="Features"], section[aria-label="Why creators use it"], footer';

describe('first screens sent ready', () => {
  it('the HTML of / for a visitor holds the landing page: heading, paste box, sign-in link, features', async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<h1[^>]*>Download TikTok Videos Instantly<\/h1>/);
    expect(html).toMatch(/<input[^>]*id="video-url"/);
    expect(visibleText(html)).toContain('TikTok or Bluesky or Reddit video URL');
    expect(visibleText(html)).toContain('Get Started - Sign In');
    expect(html.match(/data-testid="feature-card"/g)).toHaveLength(6);
    // The answers it was rendered with, for the browser's first render (a JSON block, not a script).
    expect(html).toMatch(/<script type="application\/json" id="first-screen">\{"path":"\/"/);
  });

  it('the HTML of /sign-in holds the form, with its screen preloaded', async () => {
    const html = await (await fetch(`${server.url}/sign-in`)).text();
    expect(html).toMatch(/<h1[^>]*>Sign in<\/h1>/);
    expect(html).toMatch(/<input[^>]*name="email"/);
    expect(html).toMatch(/<input[^>]*name="password"/);
    expect(html).toMatch(
      /<link rel="modulepreload" crossorigin href="\/assets\/sign-in-page-[^"]+\.js" fetchpriority="low">/,
    );
    // The button waits for the script: a native submit would put the password in the address.
    expect(html).toMatch(/<button type="submit" disabled=""/);
  });

  it('/index.html and other paths stay the plain shell', async () => {
    for (const p of ['/index.html', '/sign-in?error=failed', '/faq']) {
      const html = await (await fetch(`${server.url}${p}`)).text();
      expect(html, p).toContain('<div id="root"></div>');
      expect(html, p).not.toContain('id="first-screen"');
    }
  });

  it('with JavaScript off, a visitor sees the landing page and the sign-in form', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.getByRole('heading', { level: 1, name: 'Download TikTok Videos Instantly' }).waitFor();
    expect(await page.getByLabel('TikTok or Bluesky or Reddit video URL').isVisible()).toBe(true);
    await page.goto(`${server.url}/sign-in`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(await page.getByLabel('Email').isVisible()).toBe(true);
    await context.close();
  });

  it('the landing page hydrates without an error and works: a typed link is checked and fetched', async () => {
    const { page, context } = await newPage(browser, { width: 375 });
    const errors = watchErrors(page);
    const v = tt.addVideo({ desc: 'Hydrated landing' });
    await page.goto(server.url);
    await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill(v.url);
    await page.getByTestId('url-valid').waitFor(); // React runs the field
    await page.getByRole('button', { name: 'Fetch Video' }).click();
    await page.getByTestId('video-card').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sign-in hydrates without an error and signs in', async () => {
    const { page, context } = await newPage(browser, { width: 375 });
    const errors = watchErrors(page);
    await page.goto(`${server.url}/sign-in`);
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByLabel('Email').fill(`ready-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByTestId('plan-badge').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the HTML of / for a signed-in person holds the downloader with their plan, and hydrates without an error', async () => {
    const { page, context } = await newPage(browser, { width: 1280 });
    const errors = watchErrors(page);
    await registerInBrowser(page, server.url, `signed-in-ready-${Date.now()}@example.com`);
    const sid = (await context.cookies()).find((c) => c.name === 'smt.sid');
    if (!sid) throw new Error('no session cookie');

    const res = await fetch(`${server.url}/`, { headers: { cookie: `smt.sid=${sid.value}` } });
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    const html = await res.text();
    const text = visibleText(html);
    expect(text).toContain('Free (0/6)'); // the plan badge
    expect(text).toContain('Free plan: 6 of 6 downloads left.');
    expect(html).toMatch(/<input[^>]*id="video-url"/);
    expect(text).toContain('Recent Downloads');
    expect(text).not.toContain('Get Started - Sign In');
    expect(html).toMatch(
      /<link rel="modulepreload" crossorigin href="\/assets\/downloader-page-[^"]+\.js" fetchpriority="low">/,
    );
    // A visitor still gets the landing page at the same address.
    expect(visibleText(await (await fetch(`${server.url}/`)).text())).toContain('Get Started - Sign In');

    // The browser's own load of / (registerInBrowser ended on it) and one more: hydrated, working.
    await page.goto(server.url);
    await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill(tt.addVideo({ desc: 'Signed in, ready' }).url);
    await page.getByTestId('url-valid').waitFor();
    await page.getByRole('button', { name: 'Fetch Video' }).click();
    await page.getByTestId('video-card').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('with JavaScript off, a signed-in person sees the downloader and their plan', async () => {
    const { page, context: signing } = await newPage(browser);
    await registerInBrowser(page, server.url, `no-script-${Date.now()}@example.com`);
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
    await context.addCookies(await signing.cookies());
    const still = await context.newPage();
    await still.goto(server.url);
    await still.getByTestId('plan-badge').waitFor();
    expect(await still.getByTestId('quota-note').textContent()).toBe('Free plan: 6 of 6 downloads left.');
    expect(await still.getByLabel('TikTok or Bluesky or Reddit video URL').isVisible()).toBe(true);
    await context.close();
    await signing.close();
  });

  it('the landing page keeps its static sections as sent, still routes their links, and renders them after a visit elsewhere', async () => {
    const { page, context } = await newPage(browser, { width: 375 });
    const errors = watchErrors(page);
    const changes = await watchStatic(page, LANDING_STATIC);
    await page.goto(server.url);
    const sent = await sectionsText(page, LANDING_STATIC); // as sent: the observer shows nothing changed them
    expect(sent).toHaveLength(5);
    expect(sent[0]).toMatch(/Social Media Toolkit .*Sign In/);
    expect(sent[1]).toContain('Your Complete Toolkit for Short-Form Video');
    expect(sent[2]).toContain('HD Downloads');
    expect(sent[4]).toMatch(/FAQ Contact Us Privacy Policy Terms © \d{4} Social Media Toolkit/);
    // Interactive parts run: the paste box checks a typed link (React hydrated the screen).
    await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill(tt.addVideo({ desc: 'Static landing' }).url);
    await page.getByTestId('url-valid').waitFor();
    await page.locator('html[data-ready]').waitFor({ state: 'attached' });
    expect(await sectionsText(page, LANDING_STATIC)).toEqual(sent);
    expect(await changes()).toEqual([]);
    // React hydrated the section's element (its handlers) and did nothing inside it.
    expect(await reactHolds(page, 'section[aria-label="Features"]')).toBe(true);
    expect(await reactHolds(page, 'section[aria-label="Features"] h3')).toBe(false);
    expect(await reactHolds(page, '#video-url')).toBe(true);
    expect(errors).toEqual([]);
    await screenshot(page, 'first-screens-landing-static-hydrated');

    // The footer's links are plain HTML here, yet still change screens without a page load.
    await page.evaluate(() => {
      (window as unknown as { __samePage: boolean }).__samePage = true;
    });
    await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'FAQ' }).click();
    await page.waitForURL(`${server.url}/faq`);
    await page.getByText('What does this site do?').waitFor();
    // Back on the landing page by the header's logo (kept HTML too), rendered in the browser this
    // time: the sections are all there.
    await page.getByTestId('logo').click();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('heading', { level: 2, name: 'Your Complete Toolkit for Short-Form Video' }).waitFor();
    expect(await page.getByTestId('feature-card').count()).toBe(6);
    expect(await sectionsText(page, LANDING_STATIC)).toEqual(sent);
    expect(await reactHolds(page, 'section[aria-label="Features"] h3')).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    await page
      .getByLabel('TikTok or Bluesky or Reddit video URL')
      .fill(tt.addVideo({ desc: 'Static landing again' }).url);
    await page.getByTestId('url-valid').waitFor();
    await screenshot(page, 'first-screens-landing-after-visit');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the signed-in downloader keeps its hero, chips, tiles and footer as sent while it works', async () => {
    const { page, context } = await newPage(browser, { width: 375 });
    await registerInBrowser(page, server.url, `static-${Date.now()}@example.com`);
    const errors = watchErrors(page);
    const changes = await watchStatic(page, DOWNLOADER_STATIC);
    await page.goto(server.url);
    const sent = await sectionsText(page, DOWNLOADER_STATIC);
    expect(sent).toHaveLength(4);
    expect(sent[0]).toContain('Download TikTok Videos Instantly');
    expect(sent[1]).toContain('No watermark');
    expect(sent[2]).toContain('Lightning Fast');
    await page.getByLabel('TikTok or Bluesky or Reddit video URL').fill(tt.addVideo({ desc: 'Static downloader' }).url);
    await page.getByTestId('url-valid').waitFor();
    await page.getByRole('button', { name: 'Fetch Video' }).click();
    await page.getByTestId('video-card').waitFor();
    // The page re-rendered around its static sections (a video card came): still as sent.
    expect(await sectionsText(page, DOWNLOADER_STATIC)).toEqual(sent);
    expect(await changes()).toEqual([]);
    expect(await reactHolds(page, 'section[aria-label="Why creators use it"] h2')).toBe(false);
    await screenshot(page, 'first-screens-downloader-static-hydrated');
    // Client-side to another screen and back: the downloader renders its sections itself.
    await page.evaluate(() => {
      (window as unknown as { __samePage: boolean }).__samePage = true;
    });
    await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Terms' }).click();
    await page.waitForURL(`${server.url}/terms`);
    // (Until its screen has loaded, React keeps the downloader mounted, hidden: wait for the page.)
    await page.getByRole('heading', { level: 1, name: 'Terms' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Download TikTok Videos Instantly' }).waitFor();
    expect(await sectionsText(page, DOWNLOADER_STATIC)).toEqual(sent);
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    expect(await reactHolds(page, 'section[aria-label="Why creators use it"] h2')).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});

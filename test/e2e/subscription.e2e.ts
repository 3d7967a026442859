// The Pro plan as a person sees it: a free user upgrades through the built-in test checkout
// (PayPal not configured), sees 'PRO' without a reload, cancels and sees 'Will cancel at period end'.
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
// PUBLIC_URL defaults to http://localhost:PORT: the provider's return lands there, so browse there.
let base: string;

beforeAll(async () => {
  server = await startServer();
  base = server.url.replace('127.0.0.1', 'localhost');
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function expectToast(page: Page, ...texts: string[]): Promise<void> {
  let toast = page.getByTestId('toast');
  for (const t of texts) toast = toast.filter({ hasText: t });
  await toast.first().waitFor();
}

describe('subscription', () => {
  it('upgrades through the test checkout, shows PRO, then cancels at period end', async () => {
    const { page, context } = await newPage(browser);
    await registerInBrowser(page, base, `subscriber-${Date.now()}@example.com`);
    await page.goto(`${base}/subscription`);
    await expect.poll(() => page.getByTestId('plan-badge').textContent()).toBe('Free (0/6)');
    await page.getByTestId('plan-pro').getByText('$9.99').waitFor();
    for (const feature of [
      'Unlimited downloads',
      'Priority processing',
      'Advanced captions',
      'Premium hashtag suggestions',
      'Batch processing',
      'Priority support',
    ]) {
      await page.getByTestId('plan-pro').getByText(feature).waitFor();
    }
    expect(await page.getByTestId('current-plan').textContent()).toBe('Free');
    await screenshot(page, 'subscription-free-desktop');

    await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
    await page.waitForURL(/\/api\/billing\/test-checkout\/I-TEST/);
    await page.getByText('TEST PAYMENT - no money will be charged').waitFor();
    await screenshot(page, 'subscription-test-checkout');

    await page.getByRole('button', { name: 'Approve test payment' }).click();
    await expectToast(page, 'Subscription Confirmed!');
    await page.waitForURL(`${base}/subscription`); // query string cleared
    await expect.poll(() => page.getByTestId('plan-badge').textContent()).toContain('PRO');
    expect(await page.getByTestId('subscription-state').textContent()).toBe('Active');
    expect(await page.getByTestId('current-plan').textContent()).toBe('Pro');
    await screenshot(page, 'subscription-pro-desktop');

    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    await page.getByRole('button', { name: 'Yes, cancel' }).click();
    await expectToast(page, 'Subscription Cancelled');
    await expect.poll(() => page.getByTestId('subscription-state').textContent()).toBe('Will cancel at period end');
    await page.getByTestId('pro-until').waitFor();
    expect(await page.getByTestId('plan-badge').textContent()).toContain('PRO');
    await screenshot(page, 'subscription-cancelling-desktop');
    await context.close();
  });

  it('shows the cancelled-checkout notice and fits a 375px screen', async () => {
    const { page, context } = await newPage(browser, { width: 375, height: 812 });
    await registerInBrowser(page, base, `mobile-${Date.now()}@example.com`);
    await page.goto(`${base}/subscription`);
    await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
    await page.waitForURL(/\/api\/billing\/test-checkout\//);
    await screenshot(page, 'subscription-test-checkout-mobile');
    await page.getByRole('button', { name: 'Cancel and return' }).click();
    await expectToast(page, 'Checkout not completed', 'No payment was made');
    await page.waitForURL(`${base}/subscription`);
    expect(await page.getByTestId('current-plan').textContent()).toBe('Free');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'subscription-free-mobile');
    await context.close();
  });
});

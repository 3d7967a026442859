// Passwords as a person meets them at sign-up (issue 31, NIST SP 800-63B): common and breached
// ones are refused with the reason in the form; a long passphrase is welcome.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, startServer, type RunningServer } from '../helpers/e2e.js';

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

async function tryToRegister(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

describe('creating an account', () => {
  it('says why a common password is refused, then takes a long passphrase', async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${server.url}/api/login`);
    await page.getByRole('button', { name: 'Create an account' }).click();

    await tryToRegister(page, 'common@example.com', 'password1');
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'This password is too common. Try a longer one, such as a few unrelated words.',
    );
    await screenshot(page, 'passwords-too-common');

    await tryToRegister(page, 'common@example.com', '        ');
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'This password repeats the same characters. Try a few unrelated words instead.',
    );

    await tryToRegister(page, 'common@example.com', 'qwertyuiop');
    await page.getByText('This password is too common.', { exact: false }).waitFor();

    // 64 characters and more are fine (NIST: at least 64 allowed), spaces included.
    await tryToRegister(page, 'common@example.com', `${'violet harbour lantern '.repeat(3)}quietly`);
    await page.waitForURL(`${server.url}/`);
    await page.getByTestId('plan-badge').waitFor();
    await context.close();
  });
});

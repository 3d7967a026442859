// Passwords as a person meets them (issue 31): at sign-up (NIST SP 800-63B) common and breached
// ones are refused with the reason in the form and a long passphrase is welcome; at sign-in,
// colleagues signing in from the same address never lock out the right password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, startServer, type RunningServer } from '../helpers/e2e.js';
import { TestClient } from '../helpers/test-app.js';

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

describe('signing in from an address many others use', () => {
  it('lets the right password in after dozens of colleagues signed in from the same address', async () => {
    const office = new TestClient(server.url);
    const colleague = { email: 'colleague@example.com', password: 'colleague lantern harbour' };
    expect((await office.post('/api/auth/register', colleague)).status).toBe(201);
    expect(
      (await office.post('/api/auth/register', { email: 'me@example.com', password: 'my own quiet phrase' })).status,
    ).toBe(201);
    for (let i = 0; i < 35; i++)
      expect((await new TestClient(server.url).post('/api/auth/login', colleague)).status).toBe(200);

    const { page, context } = await newPage(browser);
    await page.goto(`${server.url}/api/login`);
    await page.getByLabel('Email').fill('me@example.com');
    await page.getByLabel('Password').fill('not my phrase');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Incorrect email or password.');
    await page.getByLabel('Password').fill('my own quiet phrase');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByTestId('plan-badge').waitFor();
    await context.close();
  });
});

// Passwords as a person meets them (issue 31): at sign-up (NIST SP 800-63B) common and breached
// ones are refused with the reason in the form and a long passphrase is welcome; at sign-in,
// colleagues signing in from the same address never lock out the right password; someone guessing
// an account's password elsewhere never locks its owner out of the browser they used before (issue 34).
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

    // A password field drops line breaks itself; tabs and ideographic spaces it keeps.
    await tryToRegister(page, 'common@example.com', '\t\t\u3000\u3000\u2003\u2003\t\t');
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'A password needs more than spaces and line breaks. Try a few unrelated words instead.',
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

describe('signing in while someone guesses the password', () => {
  // Last in this file: the guesses fill this address's own counters for a minute.
  it('lets the owner in on the browser they used before, while a new one has to wait', async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${server.url}/api/login`);
    await page.getByRole('button', { name: 'Create an account' }).click();
    await tryToRegister(page, 'owner@example.com', 'owner lantern quiet harbour');
    await page.getByTestId('plan-badge').waitFor();
    await context.clearCookies({ name: 'smt.sid' }); // signed out; the browser is the same

    const guesses: number[] = [];
    for (let i = 0; i < 25; i++)
      guesses.push(
        (
          await new TestClient(server.url).post('/api/auth/login', {
            email: 'owner@example.com',
            password: `guess ${i}`,
          })
        ).status,
      );
    expect(guesses.at(-1)).toBe(429);

    const signIn = async (p: Page) => {
      await p.goto(`${server.url}/api/login`);
      await p.getByLabel('Email').fill('owner@example.com');
      await p.getByLabel('Password').fill('owner lantern quiet harbour');
      await p.getByRole('button', { name: 'Sign in' }).click();
    };
    const other = await newPage(browser);
    await signIn(other.page);
    await expect(other.page.getByRole('alert').textContent()).resolves.toBe(
      'Too many sign-in attempts. Please wait a few minutes and try again.',
    );
    await other.context.close();
    await signIn(page);
    await page.waitForURL(`${server.url}/`);
    await page.getByTestId('plan-badge').waitFor();
    await screenshot(page, 'signed-in-during-guessing');
    await context.close();
  });
});

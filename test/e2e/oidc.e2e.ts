// Sign-in through a real OpenID Provider: Authorization Code + PKCE, a wrong state, a cancel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { freePort, launchBrowser, newPage, screenshot, startServer, type RunningServer } from '../helpers/e2e.js';
import { startFakeOidc, type FakeOidc } from '../fakes/oidc-provider.js';

let server: RunningServer;
let oidc: FakeOidc;
let browser: Browser;

beforeAll(async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  oidc = await startFakeOidc(`${url}/api/callback`);
  server = await startServer({
    PORT: String(port),
    PUBLIC_URL: url,
    OIDC_ISSUER_URL: oidc.issuer,
    OIDC_CLIENT_ID: oidc.clientId,
    OIDC_CLIENT_SECRET: oidc.clientSecret,
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await oidc?.close();
});

async function signInAtProvider(page: Page, login: string) {
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[name=password]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

describe('OpenID Connect sign-in', () => {
  it('sends /api/login to the provider with PKCE and creates the user from the claims', async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${server.url}/`);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().startsWith(`${oidc.issuer}/auth`)),
      page.getByRole('link', { name: 'Get Started - Sign In' }).click(),
    ]);
    const auth = new URL(request.url());
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('code_challenge')).toBeTruthy();
    expect(auth.searchParams.get('state')).toBeTruthy();
    await signInAtProvider(page, 'maya');
    await page.waitForURL(`${server.url}/`);
    await page.getByTestId('plan-badge').waitFor();
    const me = await page.evaluate(async () => (await fetch('/api/auth/user')).json());
    expect(me).toMatchObject({
      email: 'maya@example.com',
      firstName: 'Maya',
      lastName: 'Tester',
      profileImageUrl: 'https://example.com/maya.png',
    });
    await screenshot(page, 'oidc-signed-in');
    await context.close();
  });

  it('refuses a callback whose state is not the one this browser was given', async () => {
    // Browser A is sent to the provider with its own state; browser B, with a sign-in of its own
    // under way, is made to complete A's authorization request (login CSRF / mix-up).
    const a = await newPage(browser);
    await a.page.goto(`${server.url}/api/login`);
    await a.page.locator('input[name=login]').waitFor();
    const [authRequest] = await Promise.all([
      a.page.waitForRequest((r) => r.url().startsWith(`${oidc.issuer}/auth?`)),
      a.page.goto(`${server.url}/api/login`),
    ]);
    const stateA = new URL(authRequest.url()).searchParams.get('state');
    const b = await newPage(browser);
    await b.page.goto(`${server.url}/api/login`);
    await b.page.locator('input[name=login]').waitFor();
    await b.page.goto(authRequest.url());
    await signInAtProvider(b.page, 'mallory');
    await b.page.waitForURL(/\/sign-in\?error=failed/);
    await b.page.getByRole('alert').waitFor();
    expect(await b.page.getByRole('alert').textContent()).toBe('Sign-in could not be completed. Please try again.');
    expect(await b.page.evaluate(async () => (await fetch('/api/auth/user')).status)).toBe(401);
    // It was the state check that refused it.
    expect(stateA).toBeTruthy();
    expect(server.logs()).toMatch(/oidc callback refused/);
    expect(server.logs()).toMatch(/"state\\?" response parameter value/);
    await a.context.close();
    await b.context.close();
  });

  it('shows a cancelled login as such and stays signed out', async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${server.url}/api/login`);
    await page.getByRole('link', { name: '[ Cancel ]' }).click();
    await page.waitForURL(/\/sign-in\?error=cancelled/);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe('Sign-in was cancelled.');
    expect(await page.evaluate(async () => (await fetch('/api/auth/user')).status)).toBe(401);
    await context.close();
  });
});

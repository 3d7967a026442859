// Promises that depended on configuration or on who signed up first (issue 18): admin rights from
// an unverified sign-up, free Pro / plain cookies when NODE_ENV is forgotten on an https server,
// a world-readable DATA_DIR, and the PayPal certificate fetcher as an open door.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.js';
import { createWebhookVerifier, isPayPalCertUrl } from '../../src/server/adapters/paypal/webhook-verifier.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { startServer, type RunningServer } from '../helpers/e2e.js';
import { TestClient } from '../helpers/test-app.js';

describe('admin rights come only from verified sources', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ADMIN_EMAILS: 'boss@example.com,owner@example.com' } });
  });
  afterAll(() => t.close());

  it('a password sign-up of an ADMIN_EMAILS address is not an admin', async () => {
    const squatter = await t.signUp({ email: 'boss@example.com' });
    expect(await (await squatter.get('/api/auth/user')).json()).toMatchObject({
      email: 'boss@example.com',
      isAdmin: false,
    });
    // Granted from the command line, it is.
    await t.ctx.services.admin.run({ command: 'user:grant-admin', email: 'boss@example.com' });
    expect(await (await squatter.get('/api/auth/user')).json()).toMatchObject({ isAdmin: true });
    await t.ctx.services.admin.run({ command: 'user:revoke-admin', email: 'boss@example.com' });
    expect(await (await squatter.get('/api/auth/user')).json()).toMatchObject({ isAdmin: false });
  });

  it('an OIDC identity is admin only when the provider verified the ADMIN_EMAILS address', async () => {
    const { auth } = t.ctx.services;
    const unverified = await auth.upsertFromClaims('https://idp.example', {
      sub: 'u1',
      email: 'owner@example.com',
      email_verified: false,
    });
    expect(unverified.emailVerified).toBe(false);
    const verified = await auth.upsertFromClaims('https://idp.example', {
      sub: 'u1',
      email: 'owner@example.com',
      email_verified: true,
    });
    expect(verified.emailVerified).toBe(true);
    const { isAdmin } = await import('../../src/server/services/entitlements.service.js');
    expect(isAdmin(unverified, t.ctx.config.ADMIN_EMAILS)).toBe(false);
    expect(isAdmin(verified, t.ctx.config.ADMIN_EMAILS)).toBe(true);
  });
});

describe('security mode follows PUBLIC_URL, not NODE_ENV', () => {
  const base = { SESSION_SECRET: 'x'.repeat(40), DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'smt-cfg-')) };

  it('an https PUBLIC_URL means Secure cookies, HSTS and no test checkout, NODE_ENV unset', () => {
    const c = loadConfig({ ...base, PUBLIC_URL: 'https://toolkit.example.com' });
    expect(c.NODE_ENV).toBe('development');
    expect(c.secureTransport).toBe(true);
    expect(c.testCheckoutAllowed).toBe(false);
  });

  it('the test checkout runs for localhost or when explicitly enabled, never in production', () => {
    expect(loadConfig({ ...base }).testCheckoutAllowed).toBe(true);
    expect(loadConfig({ ...base, PUBLIC_URL: 'http://127.0.0.1:5000' }).testCheckoutAllowed).toBe(true);
    expect(loadConfig({ ...base, PUBLIC_URL: 'http://toolkit.lan:5000' }).testCheckoutAllowed).toBe(false);
    expect(
      loadConfig({ ...base, PUBLIC_URL: 'https://toolkit.example.com', TEST_CHECKOUT: 'on' }).testCheckoutAllowed,
    ).toBe(true);
    expect(loadConfig({ ...base, TEST_CHECKOUT: 'off' }).testCheckoutAllowed).toBe(false);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', TEST_CHECKOUT: 'on' })).toThrow(ConfigError);
  });
});

describe('the built server on an https PUBLIC_URL with NODE_ENV unset, over an old open DATA_DIR', () => {
  let server: RunningServer;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-open-'));
  beforeAll(async () => {
    // What an older version left: a readable directory and a world-writable file.
    fs.chmodSync(dataDir, 0o755);
    fs.writeFileSync(path.join(dataDir, 'old-notes.txt'), 'left by an old version');
    fs.chmodSync(path.join(dataDir, 'old-notes.txt'), 0o666);
    server = await startServer({
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      PUBLIC_URL: 'https://toolkit.example.com',
      LOG_LEVEL: 'info',
    });
  }, 90_000);
  afterAll(() => server?.stop());

  it('says its mode at start, sets Secure cookies and HSTS, and offers no free Pro', async () => {
    expect(server.logs()).toMatch(/ready: development mode, Secure cookies \+ HSTS, billing unavailable/);
    const c = new TestClient(server.url);
    // What a browser at PUBLIC_URL sends (a TLS proxy in front): the Origin check knows only PUBLIC_URL.
    const site = { origin: 'https://toolkit.example.com' };
    const reg = await c.post('/api/auth/register', { email: 'https@example.com', password: 'long enough' }, site);
    expect(reg.status).toBe(201);
    expect(reg.headers.get('set-cookie')).toMatch(/; Secure/i);
    expect(reg.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    const create = await c.post('/api/subscription/create', {}, site);
    expect(create.status).toBe(503);
    expect((await create.json()).code).toBe('billing.unavailable');
  });

  it('keeps DATA_DIR 0700 and every file in it private, the PGlite database included', () => {
    const loose: string[] = [];
    const walk = (p: string) => {
      const st = fs.lstatSync(p);
      if ((st.mode & 0o077) !== 0) loose.push(`${p} ${(st.mode & 0o777).toString(8)}`);
      if (st.isDirectory()) for (const n of fs.readdirSync(p)) walk(path.join(p, n));
    };
    walk(dataDir);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(path.join(dataDir, 'pglite')).length).toBeGreaterThan(5);
    expect(loose).toEqual([]);
  });
});

describe('PayPal webhook certificates', () => {
  let cdn: http.Server;
  let base: string;
  const fetched: string[] = [];
  beforeAll(async () => {
    cdn = http.createServer((req, res) => {
      fetched.push(req.url!);
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => cdn.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(cdn.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((r) => cdn.close(r)));

  const headers = (certUrl: string) => ({
    transmissionId: crypto.randomUUID(),
    transmissionTime: new Date().toISOString(),
    transmissionSig: crypto.randomBytes(256).toString('base64'),
    certUrl,
    authAlgo: 'SHA256withRSA',
  });

  it('accepts only the shape of PayPal certificate URLs', () => {
    expect(isPayPalCertUrl('https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-2d7ab011')).toBe(true);
    expect(
      isPayPalCertUrl('https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-2d7ab011'),
    ).toBe(true);
    for (const bad of [
      'https://api.paypal.com/v1/oauth2/token',
      'https://api.paypal.com/v1/notifications/certs/../../v1/billing/plans',
      'https://api.paypal.com/v1/notifications/certs/CERT-1?x=1',
      'https://api.paypal.com:8443/v1/notifications/certs/CERT-1',
      'https://evil.example/v1/notifications/certs/CERT-1',
    ])
      expect(isPayPalCertUrl(bad), bad).toBe(false);
  });

  it('fetches nothing for another path, rate-limits new certificates and bounds the cache', async () => {
    const verifier = createWebhookVerifier({ webhookId: 'WH-1', certBase: base });
    const other = await verifier.verify(
      headers('https://api.paypal.com/v1/billing/subscriptions/I-1'),
      Buffer.from('{}'),
    );
    expect(other.ok).toBe(false);
    expect(fetched).toEqual([]);
    for (let i = 0; i < 30; i++) {
      const r = await verifier.verify(
        headers(`https://api.paypal.com/v1/notifications/certs/CERT-${i}`),
        Buffer.from('{}'),
      );
      expect(r.ok).toBe(false);
    }
    expect(fetched.length).toBeLessThanOrEqual(6);
    expect(fetched.every((u) => /^\/v1\/notifications\/certs\/CERT-\d+$/.test(u))).toBe(true);
    expect(verifier.cachedCertificates()).toBeLessThanOrEqual(8);
  });
});

// Without PayPal settings: the built-in test checkout outside production (same query strings as
// PayPal), and a clear 503 in production.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';

describe.each(DB_KINDS)('test checkout when PayPal is not configured (%s)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db });
  });
  afterAll(() => t.close());

  /** The approval link names PUBLIC_URL; the test server listens on its own port. */
  const local = (url: string) => t.baseUrl + new URL(url).pathname + new URL(url).search;

  it('approves through a page plainly marked as a test, returning like PayPal, then cancels', async () => {
    const c = await t.signUp();
    const created = await c.post('/api/subscription/create');
    expect(created.status).toBe(200);
    const { approvalUrl, status } = await created.json();
    expect(status).toBe('APPROVAL_PENDING');
    expect(approvalUrl).toMatch(new RegExp(`^${t.ctx.config.publicUrl}/api/billing/test-checkout/I-`));

    const page = await fetch(local(approvalUrl));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('TEST PAYMENT - no money will be charged');
    expect(html).toContain('$9.99');
    expect(html).not.toMatch(/<script/i);

    const approved = await c.post(`${new URL(approvalUrl).pathname}/approve`);
    expect(approved.status).toBe(303);
    const ret = new URL(approved.headers.get('location')!);
    expect(ret.origin + ret.pathname).toBe(`${t.ctx.config.publicUrl}/subscription`);
    expect(ret.searchParams.get('success')).toBe('true');
    expect(ret.searchParams.get('subscription_id')).toMatch(/^I-TEST/);
    expect(ret.searchParams.get('ba_token')).toMatch(/^BA-/);
    expect(ret.searchParams.get('token')).toMatch(/^EC-/);

    const confirm = await c.post('/api/subscription/confirm', {
      subscriptionId: ret.searchParams.get('subscription_id'),
      token: ret.searchParams.get('token'),
      baToken: ret.searchParams.get('ba_token'),
    });
    expect(await confirm.json()).toMatchObject({ success: true, subscription: { isActive: true } });
    expect(await (await c.get('/api/subscription/status')).json()).toMatchObject({
      isProUser: true,
      subscriptionStatus: 'active',
    });

    expect((await c.post('/api/subscription/cancel')).status).toBe(200);
    expect(await (await c.get('/api/subscription/status')).json()).toMatchObject({
      isProUser: true,
      subscriptionStatus: 'cancelled',
      subscription: { cancelAtPeriodEnd: true },
    });
  });

  it('sends an abandoned checkout back with cancel=true and grants nothing', async () => {
    const c = await t.signUp();
    const { approvalUrl } = await (await c.post('/api/subscription/create')).json();
    const back = await c.post(`${new URL(approvalUrl).pathname}/cancel`);
    expect(back.status).toBe(303);
    const ret = new URL(back.headers.get('location')!);
    expect(ret.searchParams.get('cancel')).toBe('true');
    expect(ret.searchParams.get('subscription_id')).toBeNull();
    expect((await (await c.get('/api/subscription/status')).json()).isProUser).toBe(false);
    expect((await fetch(`${t.baseUrl}/api/billing/test-checkout/I-NOPE`)).status).toBe(404);
  });

  it('gives an admin-granted Pro user "Already subscribed" and refuses webhooks (no PayPal)', async () => {
    const c = await t.signUp({ pro: true });
    const res = await c.post('/api/subscription/create');
    expect(res.status).toBe(409);
    expect((await res.json()).message).toBe('You already have an active subscription.');
    const hook = await fetch(`${t.baseUrl}/api/webhooks/paypal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(hook.status).toBe(503);
  });
});

describe('production without PayPal settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db: 'pglite', env: { NODE_ENV: 'production' } });
  });
  afterAll(() => t.close());

  it('answers subscribing with 503 billing.unavailable and serves no test checkout', async () => {
    const c = await t.signUp();
    const res = await c.post('/api/subscription/create');
    expect(res.status).toBe(503);
    expect((await res.json()).code).toBe('billing.unavailable');
    expect((await fetch(`${t.baseUrl}/api/billing/test-checkout/I-TEST123`)).status).toBe(404);
  });
});

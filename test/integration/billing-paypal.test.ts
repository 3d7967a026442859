// The Pro plan against a stateful fake PayPal (real HTTP on 127.0.0.1): checkout, confirmation,
// cancel with Pro kept to the paid-through date, signed webhooks (replayed, forged, out of order,
// missing), reconciliation, failed renewals, the token refresh and two browsers racing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { createPayPalClient } from '../../src/server/adapters/paypal/paypal.client.js';
import {
  FAKE_CERT_HOST,
  FAKE_CLIENT_ID,
  FAKE_CLIENT_SECRET,
  FAKE_WEBHOOK_ID,
  startFakePayPal,
  type FakePayPal,
} from '../fakes/fake-paypal.js';

describe.each(DB_KINDS)('Pro plan with PayPal (%s)', (db) => {
  let t: TestApp;
  let fake: FakePayPal;
  let planId: string;

  beforeAll(async () => {
    fake = await startFakePayPal();
    planId = fake.seedPlan();
    t = await createTestApp({
      db,
      env: {
        PAYPAL_CLIENT_ID: FAKE_CLIENT_ID,
        PAYPAL_CLIENT_SECRET: FAKE_CLIENT_SECRET,
        PAYPAL_PLAN_ID: planId,
        PAYPAL_WEBHOOK_ID: FAKE_WEBHOOK_ID,
        PAYPAL_API_BASE: fake.url,
        UPSTREAM_HOST_MAP: JSON.stringify({ [FAKE_CERT_HOST]: fake.url }),
      },
    });
    fake.setWebhook(`${t.baseUrl}/api/webhooks/paypal`);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  async function status(c: TestClient) {
    const res = await c.get('/api/subscription/status');
    expect(res.status).toBe(200);
    return res.json();
  }
  /** create → the buyer approves on (fake) PayPal → the return URL's query string. */
  async function checkout(c: TestClient) {
    const created = await c.post('/api/subscription/create');
    expect(created.status).toBe(200);
    const { approvalUrl } = await created.json();
    const back = await fetch(approvalUrl, { redirect: 'manual' });
    expect(back.status).toBe(302);
    return new URL(back.headers.get('location')!);
  }
  async function subscribe(c: TestClient) {
    const ret = await checkout(c);
    const res = await c.post('/api/subscription/confirm', {
      subscriptionId: ret.searchParams.get('subscription_id'),
      token: ret.searchParams.get('token'),
      baToken: ret.searchParams.get('ba_token'),
    });
    expect(res.status).toBe(200);
    return { id: ret.searchParams.get('subscription_id')!, body: await res.json() };
  }

  it('needs sign-in to subscribe', async () => {
    const res = await t.client().post('/api/subscription/create');
    expect(res.status).toBe(401);
    expect((await t.client().get('/api/subscription/status')).status).toBe(401);
  });

  it('creates a PayPal subscription for the user with the right return URLs and a request id', async () => {
    const c = await t.signUp();
    const res = await c.post('/api/subscription/create');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.status).toBe('APPROVAL_PENDING');
    expect(body.approvalUrl).toMatch(new RegExp(`^${fake.url}/webapps/billing/subscriptions\\?ba_token=BA-`));
    const sent = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/billing/subscriptions').at(-1)!;
    const payload = JSON.parse(sent.body);
    expect(payload).toMatchObject({ plan_id: planId, custom_id: c.userId });
    expect(payload.application_context.return_url).toBe(`${t.ctx.config.publicUrl}/subscription?success=true`);
    expect(payload.application_context.cancel_url).toBe(`${t.ctx.config.publicUrl}/subscription?cancel=true`);
    expect(sent.headers['paypal-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // Still free until PayPal says otherwise; a second click reuses the same open checkout.
    expect((await status(c)).isProUser).toBe(false);
    const again = await (await c.post('/api/subscription/create')).json();
    expect(again.approvalUrl).toBe(body.approvalUrl);
  });

  it('confirms an approved subscription: Pro at once, status details, and no second subscription', async () => {
    const c = await t.signUp();
    const { body } = await subscribe(c);
    expect(body).toEqual({ success: true, message: expect.any(String), subscription: { isActive: true } });
    const s = await status(c);
    expect(s).toMatchObject({
      isProUser: true,
      subscriptionStatus: 'active',
      canDownload: true,
      subscription: { status: 'active', cancelAtPeriodEnd: false },
    });
    expect(Date.parse(s.subscription.nextBillingTime)).toBeGreaterThan(Date.now() + 20 * 86400_000);
    expect((await (await c.get('/api/auth/user')).json()).isPro).toBe(true);
    const dup = await c.post('/api/subscription/create');
    expect(dup.status).toBe(409);
    expect(await dup.json()).toEqual({
      code: 'billing.already_subscribed',
      message: 'You already have an active subscription.',
    });
  });

  it('answers "pending" while PayPal has not activated, and refuses foreign, unknown or malformed ids', async () => {
    const owner = await t.signUp();
    const created = await (await owner.post('/api/subscription/create')).json();
    const id = [...fake.subs.values()].find((s) => s.custom_id === owner.userId)!.id;
    expect(created.approvalUrl).toBeTruthy();
    const pending = await owner.post('/api/subscription/confirm', { subscriptionId: id });
    expect(await pending.json()).toMatchObject({ success: true, subscription: { isActive: false } });
    expect((await status(owner)).isProUser).toBe(false);

    // Someone else returns with the owner's id in the query string: never granted.
    await fetch(created.approvalUrl, { redirect: 'manual' });
    const thief = await t.signUp();
    const stolen = await thief.post('/api/subscription/confirm', { subscriptionId: id });
    expect(stolen.status).toBe(403);
    expect((await stolen.json()).code).toBe('billing.subscription_mismatch');
    expect((await status(thief)).isProUser).toBe(false);

    const unknown = await thief.post('/api/subscription/confirm', { subscriptionId: 'I-DOESNOTEXIST' });
    expect(unknown.status).toBe(404);
    const missing = await thief.post('/api/subscription/confirm', {});
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toMatch(/Missing subscription information. Please try subscribing again.$/);
    const bad = await thief.post('/api/subscription/confirm', { subscriptionId: '../../v1/oauth2/token' });
    expect(bad.status).toBe(400);
  });

  it('cancels at PayPal, keeps Pro until the paid-through date, then turns free by itself', async () => {
    fake.knobs.cycleMs = 3000;
    try {
      const c = await t.signUp();
      const { id } = await subscribe(c);
      const res = await c.post('/api/subscription/cancel');
      expect(res.status).toBe(200);
      expect((await res.json()).success).toBe(true);
      expect(fake.subs.get(id)!.status).toBe('CANCELLED');
      const s = await status(c);
      expect(s).toMatchObject({
        isProUser: true,
        subscriptionStatus: 'cancelled',
        subscription: { status: 'cancelled', cancelAtPeriodEnd: true, nextBillingTime: null },
      });
      // A second cancel (PayPal would answer 422) is still a success.
      expect((await c.post('/api/subscription/cancel')).status).toBe(200);
      const paidThrough = Date.parse(s.subscription.paidThrough);
      // Pro ends by itself at the paid-through date: no request, job or webhook turns it off.
      await expect
        .poll(async () => (await status(c)).isProUser, {
          timeout: Math.max(0, paidThrough - Date.now()) + 5_000,
          interval: 100,
        })
        .toBe(false);
      expect(Date.now()).toBeGreaterThanOrEqual(paidThrough);
      const after = await status(c);
      expect(after.subscription.cancelAtPeriodEnd).toBe(false);
      expect((await (await c.get('/api/auth/user')).json()).isPro).toBe(false);
      await expect(
        t.ctx.guards.pro({ user: await t.ctx.repos.users.findById(c.userId) } as never),
      ).rejects.toMatchObject({
        status: 403,
        code: 'billing.pro_required',
        message: 'This is a Pro feature. Upgrade to use it.',
      });
    } finally {
      fake.knobs.cycleMs = 0;
    }
  });

  it('cancel without a subscription is a clear 404', async () => {
    const c = await t.signUp();
    const res = await c.post('/api/subscription/cancel');
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('billing.no_subscription');
  });

  it('grants Pro from verified webhooks alone, in any order and duplicated, recording each event once', async () => {
    fake.discardQueued();
    const c = await t.signUp();
    await checkout(c); // approved at PayPal, but the browser never comes back
    expect((await status(c)).isProUser).toBe(false);
    fake.knobs.reorder = true; // SALE and ACTIVATED arrive before CREATED
    fake.knobs.duplicate = true;
    const before = await t.ctx.repos.billing.countEvents();
    try {
      const sent = await fake.deliver();
      expect(sent.map((e) => e.event_type)).toEqual([
        'PAYMENT.SALE.COMPLETED',
        'PAYMENT.SALE.COMPLETED',
        'BILLING.SUBSCRIPTION.ACTIVATED',
        'BILLING.SUBSCRIPTION.ACTIVATED',
        'BILLING.SUBSCRIPTION.CREATED',
        'BILLING.SUBSCRIPTION.CREATED',
      ]);
      expect(sent.every((e) => e.status === 200)).toBe(true);
    } finally {
      fake.knobs.reorder = false;
      fake.knobs.duplicate = false;
    }
    expect(await t.ctx.repos.billing.countEvents()).toBe(before + 3);
    expect(await status(c)).toMatchObject({ isProUser: true, subscriptionStatus: 'active' });
  });

  it('answers 5xx while PayPal cannot be read, so the redelivered event is processed then', async () => {
    fake.discardQueued();
    const c = await t.signUp();
    await checkout(c);
    fake.knobs.drop = new Set(['BILLING.SUBSCRIPTION.CREATED', 'PAYMENT.SALE.COMPLETED']);
    fake.knobs.failLookups = 1;
    try {
      const sent = await fake.deliver(3);
      expect(sent.map((e) => [e.event_type, e.status])).toEqual([
        ['BILLING.SUBSCRIPTION.ACTIVATED', 502],
        ['BILLING.SUBSCRIPTION.ACTIVATED', 200],
      ]);
    } finally {
      fake.knobs.drop = new Set();
      fake.knobs.failLookups = 0;
    }
    expect(await status(c)).toMatchObject({ isProUser: true, subscriptionStatus: 'active' });
  });

  it('refuses forged, tampered, stale or foreign-certificate deliveries and changes nothing', async () => {
    fake.discardQueued();
    const c = await t.signUp();
    const ret = await checkout(c);
    const subId = ret.searchParams.get('subscription_id')!;
    const event = {
      id: 'WH-FORGED-1',
      event_type: 'BILLING.SUBSCRIPTION.ACTIVATED',
      resource_type: 'subscription',
      resource: { id: subId },
    };
    const before = await t.ctx.repos.billing.countEvents();
    const body = JSON.stringify(event);
    expect(await fake.post(event, { webhookId: 'SOME-OTHER-WEBHOOK' })).toBe(400);
    expect(await fake.post(event, { body, sigFromBody: body.replace('ACTIVATED', 'CANCELLED') })).toBe(400);
    expect(await fake.post(event, { body: JSON.stringify(event, null, 2), sigFromBody: body })).toBe(400); // re-serialised body
    expect(await fake.post(event, { time: new Date(Date.now() - 3 * 3600_000).toISOString() })).toBe(400);
    expect(await fake.post(event, { certUrl: `${fake.url}/v1/notifications/certs/x` })).toBe(400);
    expect(await fake.post(event, { certUrl: 'https://paypal.com.evil.example/cert' })).toBe(400);
    const unsigned = await fetch(`${t.baseUrl}/api/webhooks/paypal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(unsigned.status).toBe(400);
    expect((await unsigned.json()).code).toBe('billing.webhook_invalid');
    expect(await t.ctx.repos.billing.countEvents()).toBe(before);
    expect((await status(c)).isProUser).toBe(false);
    // The genuine delivery still works, and its replay is answered without a second processing.
    expect(await fake.post(event)).toBe(200);
    expect((await status(c)).isProUser).toBe(true);
    expect(await fake.post(event)).toBe(200);
    expect(await t.ctx.repos.billing.countEvents()).toBe(before + 1);
  });

  it('ends with the latest state when a cancel and older events arrive out of order', async () => {
    fake.discardQueued();
    const c = await t.signUp();
    const { id } = await subscribe(c);
    fake.buyerCancel(id); // cancelled in PayPal's own interface
    fake.knobs.reorder = true; // CANCELLED first, then SALE, ACTIVATED, CREATED
    try {
      const sent = await fake.deliver();
      expect(sent[0].event_type).toBe('BILLING.SUBSCRIPTION.CANCELLED');
      expect(sent.every((e) => e.status === 200)).toBe(true);
    } finally {
      fake.knobs.reorder = false;
    }
    expect(await status(c)).toMatchObject({
      isProUser: true,
      subscriptionStatus: 'cancelled',
      subscription: { cancelAtPeriodEnd: true },
    });
  });

  it('repairs a missed CANCELLED webhook in the reconciliation pass', async () => {
    fake.discardQueued();
    const c = await t.signUp();
    const { id } = await subscribe(c);
    fake.knobs.drop.add('*');
    try {
      fake.buyerCancel(id);
      expect(await fake.deliver()).toEqual([]);
    } finally {
      fake.knobs.drop.clear();
    }
    expect((await status(c)).subscriptionStatus).toBe('active');
    const result = await t.ctx.services.billing.reconcile({ syncedMoreThanMsAgo: -1000 });
    expect(result.checked).toBeGreaterThan(0);
    expect(result.failed).toBe(0);
    expect(await status(c)).toMatchObject({
      subscriptionStatus: 'cancelled',
      subscription: { cancelAtPeriodEnd: true },
    });
  });

  it('keeps Pro through failed renewal retries and revokes it when PayPal suspends', async () => {
    fake.discardQueued();
    fake.knobs.cycleMs = 1500;
    try {
      const c = await t.signUp();
      const { id } = await subscribe(c);
      // The paid period runs out (1.5 s cycles); then the renewal fails.
      const paidThrough = Date.parse((await status(c)).subscription.paidThrough);
      await expect.poll(() => Date.now(), { timeout: 5_000, interval: 50 }).toBeGreaterThan(paidThrough);
      fake.renew(id, 'failed');
      await fake.deliver();
      expect(await status(c)).toMatchObject({ isProUser: true, subscriptionStatus: 'active' });
      fake.renew(id, 'failed');
      fake.renew(id, 'failed'); // third failure: the threshold suspends it
      const sent = await fake.deliver();
      expect(sent.map((e) => e.event_type)).toContain('BILLING.SUBSCRIPTION.SUSPENDED');
      expect(await status(c)).toMatchObject({ isProUser: false, subscriptionStatus: 'suspended' });
    } finally {
      fake.knobs.cycleMs = 0;
    }
  });

  it('moves the paid-through date forward after a successful renewal', async () => {
    fake.discardQueued();
    const c = await t.signUp();
    const { id } = await subscribe(c);
    const first = (await status(c)).subscription.nextBillingTime;
    fake.renew(id, 'paid');
    await fake.deliver();
    const next = (await status(c)).subscription.nextBillingTime;
    expect(Date.parse(next)).toBeGreaterThan(Date.parse(first));
  });

  it('gives two browsers racing to subscribe one PayPal subscription', async () => {
    const a = await t.signUp();
    const b = t.client();
    expect((await b.post('/api/auth/login', { email: a.email, password: 'correct horse battery' })).status).toBe(200);
    const [ra, rb] = await Promise.all([a.post('/api/subscription/create'), b.post('/api/subscription/create')]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    const [ja, jb] = [await ra.json(), await rb.json()];
    expect(ja.approvalUrl).toBe(jb.approvalUrl);
    expect([...fake.subs.values()].filter((s) => s.custom_id === a.userId)).toHaveLength(1);
  });

  it('cancels a second subscription approved for an account that already pays', async () => {
    fake.discardQueued();
    const c = await t.signUp();
    const { id: first } = await subscribe(c);
    // An old approval link approved later: a second live subscription for the same account.
    const paypal = createPayPalClient({
      apiBase: fake.url,
      clientId: FAKE_CLIENT_ID,
      clientSecret: FAKE_CLIENT_SECRET,
      planId,
    });
    const second = await paypal.createSubscription({
      customId: c.userId,
      returnUrl: 'https://x.example/r',
      cancelUrl: 'https://x.example/c',
      requestId: crypto.randomUUID(),
    });
    await fetch(fake.approvalUrlOf(second.id)!, { redirect: 'manual' });
    const sent = await fake.deliver();
    expect(sent.every((e) => e.status === 200)).toBe(true);
    expect(fake.subs.get(second.id)!.status).toBe('CANCELLED');
    expect(fake.subs.get(first)!.status).toBe('ACTIVE');
    expect(await status(c)).toMatchObject({
      isProUser: true,
      subscriptionStatus: 'active',
      subscription: { status: 'active', cancelAtPeriodEnd: false },
    });
  });

  it('limits subscription calls per account', async () => {
    const c = await t.signUp();
    const answers = [];
    for (let i = 0; i < 31; i++)
      answers.push((await c.post('/api/subscription/confirm', { subscriptionId: 'I-NOPE' })).status);
    expect(answers.slice(0, 30).every((s) => s === 404)).toBe(true);
    const last = await c.post('/api/subscription/confirm', { subscriptionId: 'I-NOPE' });
    expect(last.status).toBe(429);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await last.json()).code).toBe('billing.rate_limited');
    // Another account is not affected.
    expect((await (await t.signUp()).post('/api/subscription/confirm', { subscriptionId: 'I-NOPE' })).status).toBe(404);
  });

  it('refreshes a revoked OAuth token once and carries on', async () => {
    const c = await t.signUp();
    const before = fake.tokenRequests;
    fake.expireTokens();
    const res = await c.post('/api/subscription/create');
    expect(res.status).toBe(200);
    expect(fake.tokenRequests).toBe(before + 1);
  });
});

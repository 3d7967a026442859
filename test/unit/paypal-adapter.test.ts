// The PayPal adapter against the fake PayPal over real HTTP: token caching (one request for many
// callers), refresh after a 401, request ids, approve link by rel, cancel twice, billing:setup;
// and the offline webhook signature rules (unsigned-decimal CRC-32, paypal.com certificates only).
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayPalClient } from '../../src/server/adapters/paypal/paypal.client.js';
import { createWebhookVerifier, isPayPalCertUrl } from '../../src/server/adapters/paypal/webhook-verifier.js';
import { approveLink } from '../../src/server/adapters/paypal/types.js';
import { billingSetup } from '../../src/server/services/billing-setup.js';
import { loadConfig } from '../../src/server/config.js';
import {
  FAKE_CERT_HOST,
  FAKE_CLIENT_ID,
  FAKE_CLIENT_SECRET,
  startFakePayPal,
  type FakePayPal,
} from '../fakes/fake-paypal.js';

let fake: FakePayPal;
beforeAll(async () => {
  fake = await startFakePayPal();
});
afterAll(() => fake.close());

const client = (planId: string, secret = FAKE_CLIENT_SECRET) =>
  createPayPalClient({ apiBase: fake.url, clientId: FAKE_CLIENT_ID, clientSecret: secret, planId });

describe('PayPal REST client', () => {
  it('shares one token between concurrent calls and refreshes once after a 401', async () => {
    const planId = fake.seedPlan();
    const c = client(planId);
    const before = fake.tokenRequests;
    const subs = await Promise.all(
      [1, 2, 3].map((i) =>
        c.createSubscription({
          customId: `u${i}`,
          returnUrl: 'https://app.example/r',
          cancelUrl: 'https://app.example/c',
          requestId: crypto.randomUUID(),
        }),
      ),
    );
    expect(fake.tokenRequests).toBe(before + 1);
    fake.expireTokens();
    expect((await c.getSubscription(subs[0].id))?.custom_id).toBe('u1');
    expect(fake.tokenRequests).toBe(before + 2);
  });

  it('sends PayPal-Request-Id on every POST: a retried create returns the same subscription', async () => {
    const c = client(fake.seedPlan());
    const input = {
      customId: 'same',
      returnUrl: 'https://app.example/r',
      cancelUrl: 'https://app.example/c',
      requestId: crypto.randomUUID(),
    };
    const a = await c.createSubscription(input);
    const b = await c.createSubscription(input);
    expect(b.id).toBe(a.id);
    expect([...fake.subs.values()].filter((s) => s.custom_id === 'same')).toHaveLength(1);
    const posts = fake.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/billing'));
    expect(posts.every((r) => typeof r.headers['paypal-request-id'] === 'string')).toBe(true);
    // The approve link is found by rel, wherever it sits.
    expect(approveLink({ ...a, links: [...(a.links ?? [])].reverse() })).toBe(approveLink(a));
  });

  it('treats a second cancel (422 SUBSCRIPTION_STATUS_INVALID) as done, and 404 as unknown', async () => {
    const c = client(fake.seedPlan());
    const sub = await c.createSubscription({
      customId: 'x',
      returnUrl: 'https://app.example/r',
      cancelUrl: 'https://app.example/c',
      requestId: crypto.randomUUID(),
    });
    await fetch(approveLink(sub)!, { redirect: 'manual' });
    await c.cancelSubscription(sub.id, 'first');
    await expect(c.cancelSubscription(sub.id, 'second')).resolves.toBeUndefined();
    expect((await c.getSubscription(sub.id))?.status).toBe('CANCELLED');
    expect(await c.getSubscription('I-UNKNOWN')).toBeNull();
    // Cancelling something never activated is a real error.
    const pending = await c.createSubscription({
      customId: 'y',
      returnUrl: 'https://app.example/r',
      cancelUrl: 'https://app.example/c',
      requestId: crypto.randomUUID(),
    });
    await expect(c.cancelSubscription(pending.id, 'nope')).rejects.toMatchObject({
      status: 422,
      issue: 'SUBSCRIPTION_STATUS_INVALID',
    });
  });

  it('reports bad credentials as an OAuth failure', async () => {
    await expect(client('P-X', 'wrong').getSubscription('I-1')).rejects.toMatchObject({
      status: 401,
      name: 'invalid_client',
    });
  });

  it('billing:setup creates a SERVICE product and a never-ending $9.99 USD monthly plan', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      SESSION_SECRET: 'x'.repeat(32),
      DATA_DIR: '/tmp/smt-billing-setup',
      PAYPAL_CLIENT_ID: FAKE_CLIENT_ID,
      PAYPAL_CLIENT_SECRET: FAKE_CLIENT_SECRET,
      PAYPAL_API_BASE: fake.url,
    });
    const out = await billingSetup(config);
    const planId = /PAYPAL_PLAN_ID=(P-\w+)/.exec(out)?.[1];
    expect(planId).toBeTruthy();
    const plan = fake.plans.get(planId!)!;
    expect(plan.status).toBe('ACTIVE');
    expect(plan.billing_cycles[0]).toMatchObject({
      frequency: { interval_unit: 'MONTH', interval_count: 1 },
      tenure_type: 'REGULAR',
      total_cycles: 0,
      pricing_scheme: { fixed_price: { value: '9.99', currency_code: 'USD' } },
    });
    const product = fake.requests.find((r) => r.path === '/v1/catalogs/products' && r.method === 'POST')!;
    expect(JSON.parse(product.body).type).toBe('SERVICE');
    const unconfigured = loadConfig({
      NODE_ENV: 'test',
      SESSION_SECRET: 'x'.repeat(32),
      DATA_DIR: '/tmp/smt-billing-setup',
    });
    await expect(billingSetup(unconfigured)).rejects.toThrow(/PayPal is not configured/);
  });
});

describe('webhook signature verification', () => {
  const webhookId = 'WH-ID-1';
  const hostMap = () => ({ [FAKE_CERT_HOST]: fake.url });
  it('accepts only https certificate URLs on paypal.com', () => {
    expect(isPayPalCertUrl('https://api.sandbox.paypal.com/v1/notifications/certs/CERT-1')).toBe(true);
    expect(isPayPalCertUrl('https://api.paypal.com/v1/notifications/certs/CERT-1')).toBe(true);
    expect(isPayPalCertUrl('http://api.paypal.com/cert')).toBe(false);
    expect(isPayPalCertUrl('https://paypal.com.evil.example/cert')).toBe(false);
    expect(isPayPalCertUrl('https://evilpaypal.com/cert')).toBe(false);
    expect(isPayPalCertUrl('https://user@api.paypal.com/cert')).toBe(false);
  });

  it('verifies the unsigned-decimal CRC-32 form and refuses hex, signed and wrong-webhook forms', async () => {
    const raw = JSON.stringify({ id: 'WH-0', event_type: 'BILLING.SUBSCRIPTION.ACTIVATED', resource: { id: 'I-1' } });
    // The fake's certificate holds the public half of its own key; sign with the fake's key via a delivery.
    let captured: { headers: Record<string, string>; body: string } | null = null;
    const http = await import('node:http');
    const sink = http.createServer((req, res) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => {
        captured = { headers: req.headers as Record<string, string>, body: b };
        res.end('{}');
      });
    });
    await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
    fake.setWebhook(`http://127.0.0.1:${(sink.address() as { port: number }).port}/`, webhookId);
    await fake.post(JSON.parse(raw), { body: raw });
    sink.close();
    const h = captured!.headers;
    const headers = {
      transmissionId: h['paypal-transmission-id'],
      transmissionTime: h['paypal-transmission-time'],
      transmissionSig: h['paypal-transmission-sig'],
      certUrl: h['paypal-cert-url'],
      authAlgo: h['paypal-auth-algo'],
    };
    const verifier = createWebhookVerifier({ webhookId, hostMap: hostMap() });
    expect(await verifier.verify(headers, Buffer.from(raw))).toEqual({ ok: true });
    expect(
      (await createWebhookVerifier({ webhookId: 'OTHER', hostMap: hostMap() }).verify(headers, Buffer.from(raw))).ok,
    ).toBe(false);
    expect((await verifier.verify(headers, Buffer.from(`${raw} `))).ok).toBe(false);
    // The configured API base is a certificate source too (no host map needed).
    expect(await createWebhookVerifier({ webhookId, certBase: fake.url }).verify(headers, Buffer.from(raw))).toEqual({
      ok: true,
    });
    // Without either, the certificate comes from the real paypal.com host, which cannot vouch for the fake.
    expect((await createWebhookVerifier({ webhookId }).verify(headers, Buffer.from(raw))).ok).toBe(false);

    // Signed with the genuine key: only the unsigned-decimal CRC-32 form verifies.
    const crc = zlib.crc32(Buffer.from(raw));
    const withCrc = (form: string) =>
      fake.sign(`${headers.transmissionId}|${headers.transmissionTime}|${webhookId}|${form}`);
    expect((await verifier.verify({ ...headers, transmissionSig: withCrc(String(crc)) }, Buffer.from(raw))).ok).toBe(
      true,
    );
    expect(crc).toBeGreaterThan(0x7fffffff); // this body's CRC has the top bit set, so the signed form differs
    expect(
      (await verifier.verify({ ...headers, transmissionSig: withCrc(String(crc | 0)) }, Buffer.from(raw))).ok,
    ).toBe(false);
    expect(
      (await verifier.verify({ ...headers, transmissionSig: withCrc(crc.toString(16)) }, Buffer.from(raw))).ok,
    ).toBe(false);
  });
});

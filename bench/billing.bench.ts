// Billing benchmarks (run: `npx tsx bench/billing.bench.ts`), each a ratio against a baseline
// measured in this same process:
// 1. verifying a PayPal webhook signature offline (cached certificate, CRC-32 + RSA-SHA256) vs one
//    loopback HTTP round trip to the fake PayPal (the least a postback verification would cost);
// 2. GET /api/subscription/status of a paying user (reads their subscriptions) vs GET
//    /api/auth/user (session + user row only), through the real app on in-memory PGlite.
import http from 'node:http';
import { createWebhookVerifier } from '../src/server/adapters/paypal/webhook-verifier.js';
import { createTestApp } from '../test/helpers/test-app.js';
import {
  FAKE_CERT_HOST,
  FAKE_CLIENT_ID,
  FAKE_CLIENT_SECRET,
  FAKE_WEBHOOK_ID,
  startFakePayPal,
} from '../test/fakes/fake-paypal.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timeAsync(fn: () => Promise<unknown>, iterations: number, runs = 7): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    for (let i = 0; i < iterations; i++) await fn();
    times.push((performance.now() - t) / iterations);
  }
  return median(times);
}

const fake = await startFakePayPal();

// 1. Webhook verification: capture one genuine delivery from the fake.
let captured: { headers: http.IncomingHttpHeaders; body: Buffer } | null = null;
const sink = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    captured = { headers: req.headers, body: Buffer.concat(chunks) };
    res.end('{}');
  });
});
await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
fake.setWebhook(`http://127.0.0.1:${(sink.address() as { port: number }).port}/`);
const event = {
  id: 'WH-BENCH',
  event_type: 'BILLING.SUBSCRIPTION.ACTIVATED',
  resource_type: 'subscription',
  resource: {
    id: 'I-BENCH',
    status: 'ACTIVE',
    billing_info: { next_billing_time: '2026-12-22T10:00:00Z' },
    padding: 'x'.repeat(2500),
  },
};
await fake.post(event);
const c = captured!;
const headers = {
  transmissionId: String(c.headers['paypal-transmission-id']),
  transmissionTime: String(c.headers['paypal-transmission-time']),
  transmissionSig: String(c.headers['paypal-transmission-sig']),
  certUrl: String(c.headers['paypal-cert-url']),
  authAlgo: String(c.headers['paypal-auth-algo']),
};
const verifier = createWebhookVerifier({ webhookId: FAKE_WEBHOOK_ID, hostMap: { [FAKE_CERT_HOST]: fake.url } });
if (!(await verifier.verify(headers, c.body)).ok) throw new Error('the captured delivery does not verify');
const roundTrip = await timeAsync(() => fetch(`${fake.url}/v1/billing/plans/P-NONE`).then((r) => r.arrayBuffer()), 200);
const offline = await timeAsync(() => verifier.verify(headers, c.body), 200);
console.log(
  `Webhook (${c.body.length} B body): loopback round trip ${roundTrip.toFixed(3)} ms, offline verify ` +
    `${offline.toFixed(3)} ms, ratio ${(offline / roundTrip).toFixed(2)}x`,
);
sink.close();

// 2. Status of a paying user vs the current-user call.
const planId = fake.seedPlan();
const t = await createTestApp({
  db: 'pglite',
  env: {
    PAYPAL_CLIENT_ID: FAKE_CLIENT_ID,
    PAYPAL_CLIENT_SECRET: FAKE_CLIENT_SECRET,
    PAYPAL_PLAN_ID: planId,
    PAYPAL_API_BASE: fake.url,
  },
});
const user = await t.signUp();
const { approvalUrl } = await (await user.post('/api/subscription/create')).json();
const back = new URL((await fetch(approvalUrl, { redirect: 'manual' })).headers.get('location')!);
await user.post('/api/subscription/confirm', { subscriptionId: back.searchParams.get('subscription_id') });
const s = await (await user.get('/api/subscription/status')).json();
if (!s.isProUser) throw new Error('the bench user is not Pro');
const me = await timeAsync(() => user.get('/api/auth/user').then((r) => r.arrayBuffer()), 200);
const status = await timeAsync(() => user.get('/api/subscription/status').then((r) => r.arrayBuffer()), 200);
console.log(
  `GET /api/auth/user ${me.toFixed(3)} ms, GET /api/subscription/status (paying user) ` +
    `${status.toFixed(3)} ms, ratio ${(status / me).toFixed(2)}x`,
);
await t.close();
await fake.close();

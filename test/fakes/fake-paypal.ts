// A stateful fake of PayPal's REST API on 127.0.0.1, speaking the real protocol (docs/sources.md 'PayPal'):
// OAuth client credentials, catalog products, plans, subscriptions with an approval page that
// redirects like PayPal's, cancel/suspend/activate with PayPal's errors, PayPal-Request-Id replay,
// and webhooks signed with its own certificate (RSA-SHA256 over id|time|webhookId|crc32(body)).
// Test knobs: duplicate, reorder, drop events; short billing cycles; failed renewals.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeCertificate, signedDeliveryHeaders } from './fake-paypal-signing.js';

export const FAKE_CLIENT_ID = 'fake-client-id';
export const FAKE_CLIENT_SECRET = 'fake-client-secret';
export const FAKE_WEBHOOK_ID = '8PT597110X687430LKGECATA';
/** The host put in `paypal-cert-url`: tests map it to the fake with UPSTREAM_HOST_MAP. */
export const FAKE_CERT_HOST = 'api.sandbox.paypal.com';

type Json = Record<string, any>;
interface Sub extends Json {
  id: string;
  status: string;
  plan_id: string;
  custom_id?: string;
}
export interface SentEvent {
  id: string;
  event_type: string;
  status: number;
}

const rid = (prefix: string, n = 13) => prefix + crypto.randomBytes(16).toString('hex').toUpperCase().slice(0, n);
const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export async function startFakePayPal(
  opts: { tokenTtlSeconds?: number; cycleMs?: number; failureThreshold?: number } = {},
) {
  const signer = makeCertificate('messageverificationcerts.sandbox.paypal.com');
  const certName = `CERT-360caa42-fca2a594-${crypto.randomBytes(4).toString('hex')}`;
  const tokens = new Map<string, number>();
  const products = new Map<string, Json>();
  const plans = new Map<string, Json>();
  const subs = new Map<string, Sub>();
  const replay = new Map<string, { status: number; body?: unknown; headers?: Record<string, string> }>();
  const queue: Json[] = [];
  const knobs = {
    duplicate: false,
    reorder: false,
    drop: new Set<string>(),
    failLookups: 0,
    tokenTtl: opts.tokenTtlSeconds ?? 32400,
    cycleMs: opts.cycleMs ?? 0,
    failureThreshold: opts.failureThreshold ?? 3,
  };
  const requests: Array<{ method: string; path: string; headers: http.IncomingHttpHeaders; body: string }> = [];
  let webhookUrl = '';
  let webhookId = FAKE_WEBHOOK_ID;
  let tokenRequests = 0;

  const nextBilling = (from: Date) =>
    knobs.cycleMs
      ? iso(new Date(from.getTime() + knobs.cycleMs))
      : iso(new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, from.getUTCDate(), 10)));
  const error = (status: number, name: string, issue?: string, description = '') => ({
    status,
    body: {
      name,
      message: description || name,
      debug_id: crypto.randomBytes(6).toString('hex'),
      details: issue ? [{ issue, description }] : [],
      links: [],
    },
  });
  function emit(type: string, resource: Json, resourceType = 'subscription') {
    queue.push({
      id: `${rid('WH-', 17)}-${rid('', 17)}`,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: resourceType,
      resource_version: resourceType === 'sale' ? '1.0' : '2.0',
      event_type: type,
      summary: type,
      resource: structuredClone(resource),
      links: [],
    });
  }
  function sale(s: Sub) {
    emit(
      'PAYMENT.SALE.COMPLETED',
      {
        id: rid('', 17),
        state: 'completed',
        amount: { total: '9.99', currency: 'USD' },
        billing_agreement_id: s.id,
        create_time: new Date().toISOString(),
      },
      'sale',
    );
  }
  function setStatus(s: Sub, status: string) {
    s.status = status;
    s.status_update_time = iso(new Date());
  }

  function route(
    method: string,
    p: string,
    body: Json,
    headers: http.IncomingHttpHeaders,
    url: URL,
  ): { status: number; body?: unknown; headers?: Record<string, string> } {
    if (method === 'POST' && p === '/v1/oauth2/token') {
      tokenRequests++;
      const expected = `Basic ${Buffer.from(`${FAKE_CLIENT_ID}:${FAKE_CLIENT_SECRET}`).toString('base64')}`;
      if (headers.authorization !== expected)
        return { status: 401, body: { error: 'invalid_client', error_description: 'Client Authentication failed' } };
      const token = `A21AA${crypto.randomBytes(24).toString('hex')}`;
      tokens.set(token, Date.now() + knobs.tokenTtl * 1000);
      return {
        status: 200,
        body: {
          scope: 'https://uri.paypal.com/services/subscriptions',
          access_token: token,
          token_type: 'Bearer',
          app_id: 'APP-80W284485P519543T',
          expires_in: knobs.tokenTtl,
          nonce: rid(''),
        },
      };
    }
    const cert = /^\/v1\/notifications\/certs\/([\w-]+)$/.exec(p);
    if (method === 'GET' && cert)
      return cert[1] === certName
        ? { status: 200, body: signer.cert, headers: { 'content-type': 'application/x-pem-file' } }
        : { status: 404, body: '' };
    // The buyer-facing approval page: approves (SUBSCRIBE_NOW) and redirects like PayPal.
    if (method === 'GET' && p === '/webapps/billing/subscriptions') {
      const s = [...subs.values()].find((x) => x.__ba_token === url.searchParams.get('ba_token'));
      if (!s) return { status: 404, body: 'unknown approval token' };
      if (url.searchParams.get('action') === 'cancel') {
        const to = new URL(s.__cancel_url);
        to.searchParams.set('ba_token', s.__ba_token);
        to.searchParams.set('token', s.__token);
        return { status: 302, headers: { location: to.href } };
      }
      if (s.status === 'APPROVAL_PENDING') activate(s);
      const to = new URL(s.__return_url);
      to.searchParams.set('subscription_id', s.id);
      to.searchParams.set('ba_token', s.__ba_token);
      to.searchParams.set('token', s.__token);
      return { status: 302, headers: { location: to.href } };
    }
    if (!p.startsWith('/v1/')) return { status: 404, body: 'not found' };
    const bearer = /^Bearer (.+)$/.exec(String(headers.authorization ?? ''))?.[1];
    const exp = bearer ? tokens.get(bearer) : undefined;
    if (!exp || exp < Date.now())
      return error(
        401,
        'AUTHENTICATION_FAILURE',
        undefined,
        'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
      );

    if (method === 'POST' && p === '/v1/catalogs/products') {
      if (!body.name) return error(400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER');
      const prod = {
        id: rid('PROD-', 17),
        name: body.name,
        description: body.description,
        type: body.type ?? 'PHYSICAL',
        category: body.category,
        create_time: new Date().toISOString(),
        links: [],
      };
      products.set(prod.id, prod);
      return { status: 201, body: prod };
    }
    if (method === 'POST' && p === '/v1/billing/plans') {
      if (!products.has(body.product_id)) return error(422, 'UNPROCESSABLE_ENTITY', 'INVALID_PRODUCT_ID');
      const plan = {
        ...body,
        id: rid('P-', 24),
        status: body.status ?? 'ACTIVE',
        create_time: new Date().toISOString(),
        links: [],
      };
      plans.set(plan.id, plan);
      return { status: 201, body: plan };
    }
    const planOp = /^\/v1\/billing\/plans\/([\w-]+)(?:\/(activate|deactivate))?$/.exec(p);
    if (planOp) {
      const plan = plans.get(planOp[1]);
      if (!plan) return error(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
      if (method === 'GET' && !planOp[2]) return { status: 200, body: plan };
      if (method === 'POST' && planOp[2]) {
        plan.status = planOp[2] === 'activate' ? 'ACTIVE' : 'INACTIVE';
        return { status: 204 };
      }
    }
    if (method === 'POST' && p === '/v1/billing/subscriptions') {
      const plan = plans.get(body.plan_id);
      if (!plan) return error(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
      if (plan.status !== 'ACTIVE') return error(422, 'UNPROCESSABLE_ENTITY', 'PLAN_STATUS_INVALID');
      const ctx = body.application_context ?? {};
      if (!ctx.return_url || !ctx.cancel_url) return error(400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER');
      const now = new Date();
      const s: Sub = {
        id: rid('I-', 12),
        status: 'APPROVAL_PENDING',
        status_update_time: iso(now),
        plan_id: plan.id,
        custom_id: body.custom_id,
        plan_overridden: false,
        start_time: iso(now),
        quantity: '1',
        create_time: iso(now),
        __ba_token: rid('BA-', 17),
        __token: rid('', 17),
        __return_url: ctx.return_url,
        __cancel_url: ctx.cancel_url,
      };
      subs.set(s.id, s);
      emit('BILLING.SUBSCRIPTION.CREATED', view(s));
      const full = view(s);
      return {
        status: 201,
        body: headers.prefer === 'return=minimal' ? { id: s.id, status: s.status, links: full.links } : full,
      };
    }
    const subOp = /^\/v1\/billing\/subscriptions\/([\w-]+)(?:\/(cancel|suspend|activate))?$/.exec(p);
    if (subOp) {
      const s = subs.get(subOp[1]);
      if (!s) return error(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'Requested resource ID was not found.');
      if (method === 'GET' && !subOp[2]) {
        if (knobs.failLookups > 0) {
          knobs.failLookups--;
          return error(503, 'SERVICE_UNAVAILABLE', undefined, 'Service Unavailable.');
        }
        return { status: 200, body: view(s) };
      }
      if (method === 'POST' && subOp[2]) {
        const reason = body.reason;
        if (subOp[2] !== 'activate' && (typeof reason !== 'string' || !reason))
          return error(400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER');
        if (typeof reason === 'string' && reason.length > 128)
          return error(400, 'INVALID_REQUEST', 'INVALID_STRING_MAX_LENGTH');
        if (subOp[2] === 'cancel') {
          if (s.status !== 'ACTIVE' && s.status !== 'SUSPENDED')
            return error(
              422,
              'UNPROCESSABLE_ENTITY',
              'SUBSCRIPTION_STATUS_INVALID',
              'Invalid subscription status for cancel action; subscription status should be active or suspended.',
            );
          cancelSub(s, reason);
          return { status: 204 };
        }
        if (subOp[2] === 'suspend') {
          if (s.status !== 'ACTIVE') return error(422, 'UNPROCESSABLE_ENTITY', 'SUBSCRIPTION_STATUS_INVALID');
          setStatus(s, 'SUSPENDED');
          s.status_change_note = reason;
          emit('BILLING.SUBSCRIPTION.SUSPENDED', view(s));
          return { status: 204 };
        }
        if (s.status !== 'SUSPENDED') return error(422, 'UNPROCESSABLE_ENTITY', 'SUBSCRIPTION_STATUS_INVALID');
        setStatus(s, 'ACTIVE');
        emit('BILLING.SUBSCRIPTION.ACTIVATED', view(s));
        return { status: 204 };
      }
    }
    return error(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
  }

  function view(s: Sub): Json {
    const out: Json = {};
    for (const [k, v] of Object.entries(s)) if (!k.startsWith('__')) out[k] = structuredClone(v);
    out.links = [
      ...(s.status === 'APPROVAL_PENDING'
        ? [{ href: `${api.url}/webapps/billing/subscriptions?ba_token=${s.__ba_token}`, rel: 'approve', method: 'GET' }]
        : []),
      { href: `${api.url}/v1/billing/subscriptions/${s.id}`, rel: 'edit', method: 'PATCH' },
      { href: `${api.url}/v1/billing/subscriptions/${s.id}`, rel: 'self', method: 'GET' },
    ];
    return out;
  }
  function activate(s: Sub) {
    const now = new Date();
    setStatus(s, 'ACTIVE');
    s.billing_info = {
      outstanding_balance: { currency_code: 'USD', value: '0.0' },
      cycle_executions: [
        {
          tenure_type: 'REGULAR',
          sequence: 1,
          cycles_completed: 1,
          cycles_remaining: 0,
          current_pricing_scheme_version: 1,
          total_cycles: 0,
        },
      ],
      last_payment: { amount: { currency_code: 'USD', value: '9.99' }, time: iso(now) },
      next_billing_time: nextBilling(now),
      failed_payments_count: 0,
    };
    emit('BILLING.SUBSCRIPTION.ACTIVATED', view(s));
    sale(s);
  }
  function cancelSub(s: Sub, reason: string) {
    setStatus(s, 'CANCELLED');
    s.status_change_note = reason;
    delete s.billing_info?.next_billing_time;
    emit('BILLING.SUBSCRIPTION.CANCELLED', view(s));
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body: raw });
      let body: Json = {};
      if (raw && String(req.headers['content-type']).includes('json')) {
        try {
          body = JSON.parse(raw);
        } catch {
          return send(res, error(400, 'INVALID_REQUEST', 'MALFORMED_REQUEST_JSON'));
        }
      }
      // PayPal-Request-Id: the same key returns the first answer without a second side effect.
      const key = req.method === 'POST' ? req.headers['paypal-request-id'] : undefined;
      const replayKey = key ? `${url.pathname}|${key}` : undefined;
      if (replayKey && replay.has(replayKey)) return send(res, replay.get(replayKey)!);
      const out = route(req.method ?? 'GET', url.pathname, body, req.headers, url);
      // Authentication runs before idempotency: a 401 is not remembered against the key.
      if (replayKey && out.status < 500 && out.status !== 401 && url.pathname !== '/v1/oauth2/token')
        replay.set(replayKey, out);
      send(res, out);
    });
  });
  function send(res: http.ServerResponse, out: { status: number; body?: unknown; headers?: Record<string, string> }) {
    const isText = typeof out.body === 'string';
    res.writeHead(out.status, {
      'content-type': isText ? 'text/plain' : 'application/json',
      'paypal-debug-id': crypto.randomBytes(6).toString('hex'),
      ...out.headers,
    });
    res.end(out.body === undefined ? undefined : isText ? (out.body as string) : JSON.stringify(out.body));
  }
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));

  /** Signs and posts one event the way PayPal does; `tamper` lets tests forge deliveries. */
  async function post(
    event: Json,
    tamper: { body?: string; webhookId?: string; certUrl?: string; time?: string; sigFromBody?: string } = {},
  ): Promise<number> {
    const raw = tamper.body ?? JSON.stringify(event);
    const res = await fetch(webhookUrl, {
      method: 'POST',
      headers: signedDeliveryHeaders({
        key: signer.key,
        webhookId: tamper.webhookId ?? webhookId,
        certUrl: tamper.certUrl ?? `https://${FAKE_CERT_HOST}/v1/notifications/certs/${certName}`,
        signedBody: tamper.sigFromBody ?? raw,
        time: tamper.time ?? iso(new Date()),
      }),
      body: raw,
    });
    await res.arrayBuffer();
    return res.status;
  }

  const api = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    knobs,
    requests,
    subs,
    plans,
    get tokenRequests() {
      return tokenRequests;
    },
    get queued() {
      return queue.map((e) => e.event_type);
    },
    certUrl: () => `https://${FAKE_CERT_HOST}/v1/notifications/certs/${certName}`,
    setWebhook(url: string, id = FAKE_WEBHOOK_ID) {
      webhookUrl = url;
      webhookId = id;
    },
    /** Sets up a product and an ACTIVE monthly plan like billing:setup would; returns the plan id. */
    seedPlan(status = 'ACTIVE'): string {
      const prod = { id: rid('PROD-', 17), name: 'Pro', type: 'SERVICE' };
      products.set(prod.id, prod);
      const plan = {
        id: rid('P-', 24),
        product_id: prod.id,
        name: 'Pro Monthly',
        status,
        billing_cycles: [],
        create_time: new Date().toISOString(),
      };
      plans.set(plan.id, plan);
      return plan.id;
    },
    /** Revokes every token (the next API call gets a 401 and must refresh). */
    expireTokens() {
      tokens.clear();
    },
    approvalUrlOf(id: string) {
      return view(subs.get(id)!).links.find((l: Json) => l.rel === 'approve')?.href as string | undefined;
    },
    /** Next billing cycle: paid (new next_billing_time + sale) or failed (retry, then SUSPENDED at the threshold). */
    renew(id: string, outcome: 'paid' | 'failed') {
      const s = subs.get(id)!;
      const info = s.billing_info;
      if (outcome === 'paid') {
        const now = new Date();
        info.last_payment = { amount: { currency_code: 'USD', value: '9.99' }, time: iso(now) };
        info.next_billing_time = nextBilling(
          new Date(Math.max(now.getTime(), Date.parse(info.next_billing_time ?? iso(now)))),
        );
        info.failed_payments_count = 0;
        delete info.last_failed_payment;
        info.cycle_executions[0].cycles_completed++;
        sale(s);
        return;
      }
      info.failed_payments_count = (info.failed_payments_count ?? 0) + 1;
      info.last_failed_payment = {
        amount: { currency_code: 'USD', value: '9.99' },
        time: iso(new Date()),
        reason_code: 'PAYMENT_DENIED',
        next_payment_retry_time: iso(new Date(Date.now() + 5 * 86400_000)),
      };
      emit('BILLING.SUBSCRIPTION.PAYMENT.FAILED', view(s));
      if (info.failed_payments_count >= knobs.failureThreshold) {
        setStatus(s, 'SUSPENDED');
        emit('BILLING.SUBSCRIPTION.SUSPENDED', view(s));
      }
    },
    /** The buyer cancels in PayPal's own interface. */
    buyerCancel(id: string) {
      cancelSub(subs.get(id)!, 'Cancelled by the buyer on PayPal');
    },
    /**
     * Delivers queued webhooks (with the duplicate / reorder / drop knobs applied). Like PayPal, a
     * non-2xx answer is delivered again (here at once, up to `attempts` times in all).
     */
    async deliver(attempts = 1): Promise<SentEvent[]> {
      let batch = queue.splice(0, queue.length).filter((e) => !knobs.drop.has(e.event_type) && !knobs.drop.has('*'));
      if (knobs.reorder) batch = batch.reverse();
      if (knobs.duplicate) batch = batch.flatMap((e) => [e, e]);
      const sent: SentEvent[] = [];
      for (const e of batch) {
        for (let a = 1; a <= attempts; a++) {
          const status = await post(e);
          sent.push({ id: e.id, event_type: e.event_type, status });
          if (status >= 200 && status < 300) break;
        }
      }
      return sent;
    },
    post,
    /** Signs any text with the fake's certificate key (tests of the verification rules). */
    sign: (text: string) => crypto.createSign('RSA-SHA256').update(text).sign(signer.key, 'base64'),
    /** Throws away queued events (as if PayPal never sent them). */
    discardQueued() {
      queue.length = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  return api;
}
export type FakePayPal = Awaited<ReturnType<typeof startFakePayPal>>;

// PayPal REST through the operator client (the configured API origin only, redirects re-checked,
// answers capped): OAuth client-credentials token (cached, single-flight, refreshed once on a 401),
// PayPal-Request-Id on every POST, errors kept machine-readable. Base URL from config.
import crypto from 'node:crypto';
import { PRO_PRICE_USD } from '../../../shared/constants.js';
import {
  createOperatorClient,
  type OperatorClient,
  type OperatorRequest,
  type OperatorResponse,
} from '../http/operator-client.js';
import { PayPalError, type BillingProvider, type CreateSubscriptionInput, type ProviderSubscription } from './types.js';

export interface PayPalSettings {
  apiBase: string;
  clientId: string;
  clientSecret: string;
  planId: string;
  hostMap?: Record<string, string>;
  timeoutMs?: number;
  /** Tests: a client of the same origin built with their own options. */
  http?: OperatorClient;
}

/** PayPal's answers are a few KB; anything this large is not one. */
const MAX_ANSWER_BYTES = 1024 * 1024;

export const PAYPAL_API_BASES = {
  sandbox: 'https://api-m.sandbox.paypal.com',
  live: 'https://api-m.paypal.com',
} as const;

interface RequestOpts {
  body?: unknown;
  requestId?: string;
  prefer?: string;
  /** Statuses answered without throwing (e.g. 404 on a lookup). */
  allow?: number[];
}

export function createPayPalClient(s: PayPalSettings) {
  const timeoutMs = s.timeoutMs ?? 15_000;
  const base = s.apiBase.replace(/\/$/, '');
  let token: { value: string; expiresAt: number } | null = null;
  let pending: Promise<string> | null = null;

  const http =
    s.http ?? createOperatorClient({ endpoint: base, timeoutMs, maxBytes: MAX_ANSWER_BYTES, hostMap: s.hostMap });

  /**
   * One exchange, read whole. Transport failures (refused, too large, timeout) become plain errors,
   * as fetch's were: the billing service answers them as "provider failed", not as our own 4xx.
   */
  async function call(p: string, r: OperatorRequest): Promise<{ res: OperatorResponse; text: string }> {
    try {
      const res = await http.request(base + p, { ...r, signal: AbortSignal.timeout(timeoutMs) });
      return { res, text: await res.text() };
    } catch (err) {
      throw new Error(
        `PayPal ${r.method ?? 'GET'} ${p.split('?')[0]} failed: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
  }

  async function fetchToken(): Promise<string> {
    const { res, text } = await call('/v1/oauth2/token', {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${s.clientId}:${s.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
    const body = parseOr<Record<string, unknown>>(text, {});
    if (!ok(res.status) || typeof body.access_token !== 'string') {
      // OAuth-style body ({error, error_description}), not the REST envelope.
      throw new PayPalError(
        res.status,
        String(body.error ?? 'TOKEN_FAILED'),
        undefined,
        res.header('paypal-debug-id'),
        `PayPal token request failed (${res.status} ${String(body.error ?? '')})`,
      );
    }
    const ttl = Number(body.expires_in ?? 0);
    // Renew a minute early; very short lifetimes (tests) renew at half-life.
    const margin = ttl > 120 ? 60 : ttl / 2;
    token = { value: body.access_token, expiresAt: Date.now() + (ttl - margin) * 1000 };
    return body.access_token;
  }

  /** One token request at a time; concurrent callers share it. */
  function getToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return Promise.resolve(token.value);
    pending ??= fetchToken().finally(() => (pending = null));
    return pending;
  }

  async function request<T>(
    method: 'GET' | 'POST',
    p: string,
    opts: RequestOpts = {},
  ): Promise<{ status: number; body: T }> {
    for (let attempt = 0; ; attempt++) {
      const bearer = await getToken();
      const headers: Record<string, string> = { authorization: `Bearer ${bearer}`, accept: 'application/json' };
      if (opts.body !== undefined) headers['content-type'] = 'application/json';
      if (method === 'POST') headers['paypal-request-id'] = opts.requestId ?? crypto.randomUUID();
      if (opts.prefer) headers.prefer = opts.prefer;
      const { res, text } = await call(p, {
        method,
        headers,
        body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      });
      if (res.status === 401 && attempt === 0) {
        // Token revoked or expired early: drop it, fetch a new one, retry once (same request id).
        if (token?.value === bearer) token = null;
        continue;
      }
      const body = text ? (JSON.parse(text) as T) : (undefined as T);
      if (ok(res.status) || opts.allow?.includes(res.status)) return { status: res.status, body };
      const err = (body ?? {}) as {
        name?: string;
        message?: string;
        debug_id?: string;
        details?: Array<{ issue?: string }>;
      };
      throw new PayPalError(
        res.status,
        err.name ?? 'PAYPAL_ERROR',
        err.details?.[0]?.issue,
        err.debug_id ?? res.header('paypal-debug-id'),
        `PayPal ${method} ${p.split('?')[0]} failed: ${res.status} ${err.name ?? ''} ${err.details?.[0]?.issue ?? ''}`.trim(),
      );
    }
  }

  const provider: BillingProvider & {
    createProduct(input: { name: string; description: string }): Promise<{ id: string }>;
    createPlan(productId: string): Promise<{ id: string; status: string }>;
  } = {
    kind: 'paypal',
    planId: s.planId,
    async createSubscription(input: CreateSubscriptionInput): Promise<ProviderSubscription> {
      const { body } = await request<ProviderSubscription>('POST', '/v1/billing/subscriptions', {
        requestId: input.requestId,
        prefer: 'return=representation',
        body: {
          plan_id: s.planId,
          custom_id: input.customId,
          application_context: {
            brand_name: 'Social Media Toolkit',
            locale: 'en-US',
            shipping_preference: 'NO_SHIPPING',
            user_action: 'SUBSCRIBE_NOW',
            return_url: input.returnUrl,
            cancel_url: input.cancelUrl,
          },
        },
      });
      return body;
    },
    async getSubscription(id: string) {
      const { status, body } = await request<ProviderSubscription>(
        'GET',
        `/v1/billing/subscriptions/${encodeURIComponent(id)}`,
        { allow: [404] },
      );
      return status === 404 ? null : body;
    },
    async cancelSubscription(id: string, reason: string) {
      try {
        await request('POST', `/v1/billing/subscriptions/${encodeURIComponent(id)}/cancel`, {
          body: { reason: reason.slice(0, 128) },
        });
      } catch (err) {
        // A second cancel is a 422 SUBSCRIPTION_STATUS_INVALID: fine if it is already cancelled.
        if (err instanceof PayPalError && err.status === 422 && err.issue === 'SUBSCRIPTION_STATUS_INVALID') {
          const current = await provider.getSubscription(id);
          if (current?.status === 'CANCELLED') return;
        }
        throw err;
      }
    },
    async createProduct(input) {
      const { body } = await request<{ id: string }>('POST', '/v1/catalogs/products', {
        body: { name: input.name, description: input.description, type: 'SERVICE', category: 'SOFTWARE' },
      });
      return body;
    },
    async createPlan(productId: string) {
      const { body } = await request<{ id: string; status: string }>('POST', '/v1/billing/plans', {
        prefer: 'return=representation',
        body: {
          product_id: productId,
          name: 'Pro Monthly',
          description: 'Social Media Toolkit Pro, billed monthly',
          status: 'ACTIVE',
          billing_cycles: [
            {
              frequency: { interval_unit: 'MONTH', interval_count: 1 },
              tenure_type: 'REGULAR',
              sequence: 1,
              total_cycles: 0, // 0 = never expires (the default 1 would end after one month)
              pricing_scheme: { fixed_price: { value: PRO_PRICE_USD, currency_code: 'USD' } },
            },
          ],
          payment_preferences: { auto_bill_outstanding: true, payment_failure_threshold: 3 },
        },
      });
      return body;
    },
  };
  return provider;
}
export type PayPalClient = ReturnType<typeof createPayPalClient>;

const ok = (status: number) => status >= 200 && status < 300;

function parseOr<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

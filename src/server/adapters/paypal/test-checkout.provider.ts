// The built-in test checkout: used when PayPal is not configured and NODE_ENV is not production.
// It answers like PayPal (same subscription JSON, same statuses, same return query strings) so the
// whole flow runs on one machine. Its approval page is this product's own page, marked as a test.
// State is kept in DATA_DIR/test-checkout.json so it survives a restart.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { BillingProvider, CreateSubscriptionInput, ProviderSubscription } from './types.js';

interface TestSub extends ProviderSubscription {
  return_url: string;
  cancel_url: string;
  ba_token: string;
  token: string;
}

export const TEST_PLAN_ID = 'P-TEST-CHECKOUT-PRO-MONTHLY';

const id = (prefix: string, n = 13) =>
  prefix + crypto.randomBytes(n).toString('base64url').replace(/[-_]/g, '').toUpperCase().slice(0, n);

/** PayPal bills at 10:00 UTC: the next cycle starts one month later at 10:00Z. */
export function nextMonthAt10(from: Date): string {
  const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, from.getUTCDate(), 10, 0, 0));
  return d.toISOString().replace('.000Z', 'Z');
}

export function createTestCheckoutProvider(opts: { dataDir: string; publicUrl: string; now?: () => Date }) {
  const file = path.join(opts.dataDir, 'test-checkout.json');
  const now = opts.now ?? (() => new Date());
  const subs = new Map<string, TestSub>();
  const byRequestId = new Map<string, string>();
  try {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { subs: TestSub[]; requests: Array<[string, string]> };
    for (const s of saved.subs) subs.set(s.id, s);
    for (const [k, v] of saved.requests) byRequestId.set(k, v);
  } catch {
    /* first start */
  }
  function save() {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ subs: [...subs.values()], requests: [...byRequestId] }));
    fs.renameSync(tmp, file);
  }
  const stamp = () =>
    now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
  const view = (s: TestSub): ProviderSubscription => {
    const { return_url: _r, cancel_url: _c, ba_token: _b, token: _t, ...rest } = s;
    return structuredClone(rest);
  };

  const provider = {
    kind: 'test' as const,
    planId: TEST_PLAN_ID,
    async createSubscription(input: CreateSubscriptionInput): Promise<ProviderSubscription> {
      const seen = byRequestId.get(input.requestId);
      const known = seen ? subs.get(seen) : undefined;
      if (known) return view(known);
      const sub: TestSub = {
        id: id('I-TEST'),
        status: 'APPROVAL_PENDING',
        plan_id: TEST_PLAN_ID,
        custom_id: input.customId,
        create_time: stamp(),
        status_update_time: stamp(),
        return_url: input.returnUrl,
        cancel_url: input.cancelUrl,
        ba_token: id('BA-', 17),
        token: id('EC-', 17),
        links: [],
      };
      sub.links = [{ href: `${opts.publicUrl}/api/billing/test-checkout/${sub.id}`, rel: 'approve', method: 'GET' }];
      subs.set(sub.id, sub);
      byRequestId.set(input.requestId, sub.id);
      save();
      return view(sub);
    },
    async getSubscription(subId: string) {
      const s = subs.get(subId);
      return s ? view(s) : null;
    },
    async cancelSubscription(subId: string, reason: string) {
      const s = subs.get(subId);
      if (!s) throw new Error('test checkout: unknown subscription');
      if (s.status === 'CANCELLED') return;
      if (s.status !== 'ACTIVE' && s.status !== 'SUSPENDED')
        throw new Error('test checkout: subscription is not active');
      s.status = 'CANCELLED';
      s.status_update_time = stamp();
      (s as unknown as Record<string, unknown>).status_change_note = reason.slice(0, 128);
      if (s.billing_info) delete s.billing_info.next_billing_time; // as PayPal does
      save();
    },
    /** The approval page's data; null for an unknown id. */
    checkout(subId: string) {
      const s = subs.get(subId);
      return s ? { id: s.id, status: s.status, customId: s.custom_id ?? '' } : null;
    },
    /** Buyer pressed Approve: activate and charge the first cycle (SUBSCRIBE_NOW), return like PayPal. */
    approve(subId: string): string | null {
      const s = subs.get(subId);
      if (!s) return null;
      if (s.status === 'APPROVAL_PENDING') {
        const t = now();
        s.status = 'ACTIVE';
        s.status_update_time = stamp();
        s.billing_info = {
          next_billing_time: nextMonthAt10(t),
          failed_payments_count: 0,
          last_payment: { time: stamp(), amount: { value: '9.99', currency_code: 'USD' } },
        };
        save();
      }
      const u = new URL(s.return_url);
      u.searchParams.set('subscription_id', s.id);
      u.searchParams.set('ba_token', s.ba_token);
      u.searchParams.set('token', s.token);
      return u.href;
    },
    /** Buyer pressed Cancel: the subscription stays APPROVAL_PENDING, the browser goes to cancel_url. */
    abandon(subId: string): string | null {
      const s = subs.get(subId);
      if (!s) return null;
      const u = new URL(s.cancel_url);
      u.searchParams.set('ba_token', s.ba_token);
      u.searchParams.set('token', s.token);
      return u.href;
    },
  } satisfies BillingProvider & Record<string, unknown>;
  return provider;
}
export type TestCheckoutProvider = ReturnType<typeof createTestCheckoutProvider>;

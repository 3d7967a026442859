// Pure billing rules: what a snapshot stores and how long each state entitles Pro.
import { describe, expect, it } from 'vitest';
import {
  currentSubscription,
  deriveUserBilling,
  entitledUntil,
  patchFromSnapshot,
  RENEWAL_GRACE_MS,
  RETRY_GRACE_MS,
} from '../../src/server/services/billing-rules.js';
import type { SubscriptionRow } from '../../src/server/db/repositories/billing.repository.js';
import type { User } from '../../src/server/db/repositories/users.repository.js';

const T = Date.parse('2026-01-10T10:00:00Z');
let n = 0;
function row(p: Partial<SubscriptionRow>): SubscriptionRow {
  return {
    id: ++n,
    userId: 'u',
    provider: 'paypal',
    providerSubscriptionId: `I-${n}`,
    planId: 'P',
    status: 'ACTIVE',
    nextBillingTime: null,
    paidThrough: new Date(T),
    cancelAtPeriodEnd: false,
    approvalUrl: null,
    statusUpdatedAt: null,
    failedPayments: 0,
    lastSyncedAt: null,
    createdAt: new Date(T - 86400_000 + n),
    updatedAt: new Date(T),
    ...p,
  };
}

describe('billing rules', () => {
  it('stores next_billing_time as the paid-through date only while payments are current', () => {
    const active = patchFromSnapshot({
      id: 'I-1',
      status: 'ACTIVE',
      plan_id: 'P',
      billing_info: { next_billing_time: '2026-02-10T10:00:00Z', failed_payments_count: 0 },
    });
    expect(active.paidThrough?.toISOString()).toBe('2026-02-10T10:00:00.000Z');
    const failing = patchFromSnapshot({
      id: 'I-1',
      status: 'ACTIVE',
      plan_id: 'P',
      billing_info: { next_billing_time: '2026-03-10T10:00:00Z', failed_payments_count: 1 },
    });
    expect(failing.paidThrough).toBeNull();
    expect(failing.failedPayments).toBe(1);
    const cancelled = patchFromSnapshot({
      id: 'I-1',
      status: 'CANCELLED',
      plan_id: 'P',
      billing_info: { last_payment: { time: '2026-01-10T10:00:00Z' } },
    });
    expect(cancelled).toMatchObject({ paidThrough: null, nextBillingTime: null, cancelAtPeriodEnd: true });
    expect(patchFromSnapshot({ id: 'I-1', status: 'APPROVAL_PENDING' }).paidThrough).toBeNull();
  });

  it('entitles: active with a short grace, retries with a longer one, cancelled to the paid date, pending never', () => {
    expect(entitledUntil(row({ status: 'ACTIVE' }))!.getTime()).toBe(T + RENEWAL_GRACE_MS);
    expect(entitledUntil(row({ status: 'ACTIVE', failedPayments: 2 }))!.getTime()).toBe(T + RETRY_GRACE_MS);
    expect(entitledUntil(row({ status: 'CANCELLED' }))!.getTime()).toBe(T);
    expect(entitledUntil(row({ status: 'SUSPENDED' }))!.getTime()).toBe(T);
    expect(entitledUntil(row({ status: 'APPROVAL_PENDING' }))).toBeNull();
    expect(entitledUntil(row({ status: 'ACTIVE', paidThrough: null }))).toBeNull();
  });

  it('describes the user by the active subscription, else the longest entitlement; open checkouts do not count', () => {
    const old = row({ status: 'CANCELLED', paidThrough: new Date(T + 5 * 86400_000) });
    const pending = row({ status: 'APPROVAL_PENDING', paidThrough: null });
    expect(currentSubscription([old, pending])).toBe(old);
    const fresh = row({ status: 'ACTIVE', paidThrough: new Date(T + 30 * 86400_000) });
    expect(currentSubscription([old, fresh, pending])).toBe(fresh);
    const user = { subscriptionStatus: 'free', paypalSubscriptionId: null } as User;
    expect(deriveUserBilling([old, fresh], user)).toMatchObject({
      subscriptionStatus: 'active',
      paypalSubscriptionId: fresh.providerSubscriptionId,
      proUntil: new Date(T + 30 * 86400_000 + RENEWAL_GRACE_MS),
    });
    expect(deriveUserBilling([pending], user)).toEqual({
      proUntil: null,
      subscriptionStatus: 'free',
      paypalSubscriptionId: null,
    });
  });
});

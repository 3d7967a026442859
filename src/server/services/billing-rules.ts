// Pure billing rules: how a provider snapshot is stored and how long a subscription entitles Pro.
import type { NewUser, User } from '../db/repositories/users.repository.js';
import type { SubscriptionPatch, SubscriptionRow } from '../db/repositories/billing.repository.js';
import type { ProviderSubscription } from '../adapters/paypal/types.js';

const DAY = 24 * 60 * 60 * 1000;
/** Renewals land at 10:00 UTC and their webhooks can be late: keep Pro this long past the paid-through date. */
export const RENEWAL_GRACE_MS = 2 * DAY;
/** While PayPal retries a failed renewal (every 5 days, twice), Pro continues; SUSPENDED ends it. */
export const RETRY_GRACE_MS = 11 * DAY;

const parseDate = (v: string | undefined | null) => {
  if (!v) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** What we store from a snapshot. The paid-through date only advances while payments are current. */
export function patchFromSnapshot(s: ProviderSubscription): SubscriptionPatch {
  const info = s.billing_info ?? {};
  const failed = Number(info.failed_payments_count ?? 0) || 0;
  const next = parseDate(info.next_billing_time);
  const lastPaid = parseDate(info.last_payment?.time);
  let paidThrough: Date | null = null;
  if (s.status === 'ACTIVE' && failed === 0)
    paidThrough = next ?? (lastPaid ? new Date(lastPaid.getTime() + 31 * DAY) : null);
  return {
    planId: s.plan_id ?? null,
    status: s.status,
    nextBillingTime: s.status === 'ACTIVE' ? next : null,
    paidThrough,
    cancelAtPeriodEnd: s.status === 'CANCELLED',
    statusUpdatedAt: parseDate(s.status_update_time),
    failedPayments: failed,
  };
}

/** Until when a subscription entitles Pro (null: it does not). */
export function entitledUntil(sub: SubscriptionRow): Date | null {
  if (!sub.paidThrough) return null;
  const t = sub.paidThrough.getTime();
  switch (sub.status) {
    case 'ACTIVE':
      return new Date(t + (sub.failedPayments > 0 ? RETRY_GRACE_MS : RENEWAL_GRACE_MS));
    case 'CANCELLED': // paid for: keep it to the end of the period
    case 'SUSPENDED':
    case 'EXPIRED':
      return new Date(t);
    default:
      return null;
  }
}

const OPEN = new Set(['CREATING', 'APPROVAL_PENDING']);

/** The subscription that describes the user: an active one, else the one entitling longest, else the latest. */
export function currentSubscription(subs: SubscriptionRow[]): SubscriptionRow | null {
  const real = subs.filter((s) => !OPEN.has(s.status));
  if (!real.length) return null;
  const active = real.filter((s) => s.status === 'ACTIVE' || s.status === 'APPROVED');
  if (active.length) return active[active.length - 1];
  const scored = real.map((s) => ({ s, until: entitledUntil(s)?.getTime() ?? -1 }));
  scored.sort((a, b) => a.until - b.until || a.s.createdAt.getTime() - b.s.createdAt.getTime() || a.s.id - b.s.id);
  return scored[scored.length - 1].s;
}

export function userStatusOf(providerStatus: string): string {
  switch (providerStatus) {
    case 'ACTIVE':
      return 'active';
    case 'APPROVED':
      return 'pending';
    case 'CANCELLED':
      return 'cancelled';
    case 'SUSPENDED':
      return 'suspended';
    case 'EXPIRED':
      return 'expired';
    default:
      return 'free';
  }
}

/** The user columns billing owns, recomputed from all of the user's subscriptions. */
export function deriveUserBilling(subs: SubscriptionRow[], user: User): Partial<NewUser> {
  let until: Date | null = null;
  for (const s of subs) {
    const u = entitledUntil(s);
    if (u && (!until || u > until)) until = u;
  }
  const current = currentSubscription(subs);
  return {
    proUntil: until,
    subscriptionStatus: current ? userStatusOf(current.status) : user.subscriptionStatus,
    paypalSubscriptionId: current ? current.providerSubscriptionId : user.paypalSubscriptionId,
  };
}

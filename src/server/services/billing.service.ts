// The Pro plan: checkout, confirmation, cancellation, webhooks and reconciliation. The provider
// (PayPal or the built-in test checkout) is always re-read; nothing a browser sends grants Pro.
import type { Logger } from 'pino';
import { AppError, fail, retryAfter } from '../errors.js';
import type { RateLimiter } from '../lib/rate-limiter.js';
import type { User, UsersRepository } from '../db/repositories/users.repository.js';
import type { BillingRepository } from '../db/repositories/billing.repository.js';
import { CREATING } from '../db/repositories/billing.repository.js';
import { approveLink, type BillingProvider, type ProviderSubscription } from '../adapters/paypal/types.js';
import type { WebhookVerifier } from '../adapters/paypal/webhook-verifier.js';
import type { TestCheckoutProvider } from '../adapters/paypal/test-checkout.provider.js';
import type {
  SubscriptionConfirmResponse,
  SubscriptionCreateResponse,
  SubscriptionStatus,
} from '../../shared/contracts/index.js';
import { isPro, subscriptionStatusOf } from './entitlements.service.js';
import { currentSubscription, deriveUserBilling, patchFromSnapshot, userStatusOf } from './billing-rules.js';
import { createBillingEvents } from './billing-events.js';

export interface BillingDeps {
  billing: BillingRepository;
  users: UsersRepository;
  provider: BillingProvider | null;
  verifier: WebhookVerifier | null;
  /** Set when the built-in test checkout stands in for PayPal (never in production). */
  testCheckout?: TestCheckoutProvider | null;
  publicUrl: string;
  logger: Logger;
  /** Subscription calls per account (ctx.limits.billingCallsPerUser). */
  limiter: RateLimiter;
  now?: () => Date;
}

/** An approval link stays usable this long (PayPal's approval tokens last about 3 hours). */
const REUSE_CHECKOUT_MS = 2 * 60 * 60 * 1000;
const IN_FLIGHT_MS = 30_000;

export function createBillingService(deps: BillingDeps) {
  const now = deps.now ?? (() => new Date());
  const log = deps.logger.child({ component: 'billing' });
  // Each create/confirm/cancel calls the provider: a per-account ceiling keeps a script from using us to hammer it.
  async function limit(user: User) {
    const wait = await deps.limiter.hit(user.id);
    if (wait) throw fail('billing.rate_limited', undefined, {}, retryAfter(wait));
  }

  function requireProvider(): BillingProvider {
    if (!deps.provider) throw fail('billing.unavailable');
    return deps.provider;
  }

  /** Stores a snapshot for the user named in its custom_id; ignores foreign plans and unknown users. */
  async function sync(snap: ProviderSubscription): Promise<User | null> {
    const provider = requireProvider();
    const userId = snap.custom_id;
    if (!userId || snap.plan_id !== provider.planId) {
      log.warn({ subscriptionId: snap.id, planId: snap.plan_id }, 'subscription ignored: not ours (plan or custom_id)');
      return null;
    }
    if (!(await deps.users.findById(userId))) return null;
    const { user } = await deps.billing.applySnapshot(
      userId,
      provider.kind,
      snap.id,
      patchFromSnapshot(snap),
      (subs, u) => deriveUserBilling(subs, u),
    );
    if (snap.status === 'ACTIVE') return (await cancelDuplicates(userId)) ?? user;
    return user;
  }

  /**
   * Two approved checkouts (an old approval link, two tabs) would bill twice: keep the subscription
   * created first and cancel the others at the provider (their paid days still count).
   */
  async function cancelDuplicates(userId: string): Promise<User | null> {
    const provider = requireProvider();
    const live = (await deps.billing.subscriptionsOf(userId)).filter(
      (s) => s.provider === provider.kind && s.status === 'ACTIVE' && !s.cancelAtPeriodEnd,
    );
    let latest: User | null = null;
    for (const dup of live.slice(1)) {
      log.warn(
        { userId, kept: live[0].providerSubscriptionId, cancelled: dup.providerSubscriptionId },
        'duplicate subscription cancelled',
      );
      try {
        await provider.cancelSubscription(
          dup.providerSubscriptionId,
          'Duplicate subscription: the account already has an active one',
        );
        await deps.billing.markCancelRequested(dup.id, dup.paidThrough);
        const snap = await provider.getSubscription(dup.providerSubscriptionId);
        if (snap)
          latest = (
            await deps.billing.applySnapshot(userId, provider.kind, snap.id, patchFromSnapshot(snap), (subs, u) =>
              deriveUserBilling(subs, u),
            )
          ).user;
      } catch (err) {
        log.error({ err, subscriptionId: dup.providerSubscriptionId }, 'could not cancel a duplicate subscription');
      }
    }
    return latest;
  }

  async function fetchSnapshot(id: string): Promise<ProviderSubscription | null> {
    try {
      return await requireProvider().getSubscription(id);
    } catch (err) {
      if (err instanceof AppError) throw err;
      log.error({ err, subscriptionId: id }, 'provider lookup failed');
      throw fail('billing.provider_error', { variant: 'no_answer' });
    }
  }

  async function waitForCheckout(rowId: number): Promise<SubscriptionCreateResponse | null> {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      const row = await deps.billing.findSubscriptionById(rowId);
      if (!row) return null; // that attempt failed; start our own
      if (row.status !== CREATING) return { approvalUrl: row.approvalUrl, status: row.status };
    }
    throw fail('billing.provider_error');
  }

  async function create(user: User): Promise<SubscriptionCreateResponse> {
    const provider = requireProvider();
    await limit(user);
    const current = currentSubscription(await deps.billing.subscriptionsOf(user.id));
    const alreadyPaying =
      current && (current.status === 'ACTIVE' || current.status === 'APPROVED') && !current.cancelAtPeriodEnd;
    if (user.proGranted || alreadyPaying || (isPro(user, now()) && !current?.cancelAtPeriodEnd)) {
      throw fail('billing.already_subscribed');
    }
    for (let attempt = 0; attempt < 2; attempt++) {
      const t = now().getTime();
      const claim = await deps.billing.claimCheckout(
        user.id,
        provider.kind,
        new Date(t - REUSE_CHECKOUT_MS),
        new Date(t - IN_FLIGHT_MS),
      );
      if (claim.kind === 'reuse') return { approvalUrl: claim.approvalUrl, status: claim.status };
      if (claim.kind === 'wait') {
        const other = await waitForCheckout(claim.rowId);
        if (other) return other;
        continue;
      }
      try {
        const sub = await provider.createSubscription({
          customId: user.id,
          returnUrl: `${deps.publicUrl}/subscription?success=true`,
          cancelUrl: `${deps.publicUrl}/subscription?cancel=true`,
          requestId: claim.requestId,
        });
        const approvalUrl = approveLink(sub) ?? null;
        await deps.billing.completeCheckout(claim.rowId, {
          providerSubscriptionId: sub.id,
          status: sub.status,
          planId: sub.plan_id ?? provider.planId,
          approvalUrl,
          statusUpdatedAt: sub.status_update_time ? new Date(sub.status_update_time) : null,
        });
        if (!approvalUrl) throw new Error('no approve link in the create answer');
        log.info({ userId: user.id, subscriptionId: sub.id }, 'checkout created');
        return { approvalUrl, status: sub.status };
      } catch (err) {
        await deps.billing.dropCheckout(claim.rowId);
        log.error({ err, userId: user.id }, 'subscription create failed');
        throw fail('billing.provider_error');
      }
    }
    throw fail('billing.provider_error');
  }

  async function confirm(user: User, subscriptionId: string): Promise<SubscriptionConfirmResponse> {
    const provider = requireProvider();
    await limit(user);
    const snap = await fetchSnapshot(subscriptionId);
    if (!snap) throw fail('billing.subscription_not_found');
    if (snap.custom_id !== user.id || snap.plan_id !== provider.planId) {
      log.warn({ userId: user.id, subscriptionId }, 'confirm refused: subscription of another account or plan');
      throw fail('billing.subscription_mismatch');
    }
    const updated = (await sync(snap)) ?? user;
    if (snap.status === 'ACTIVE' && isPro(updated, now())) {
      return { success: true, message: 'Your Pro subscription is active.', subscription: { isActive: true } };
    }
    if (snap.status === 'APPROVAL_PENDING' || snap.status === 'APPROVED' || snap.status === 'ACTIVE') {
      return {
        success: true,
        message: 'Your subscription is being activated. Please check back in a few minutes.',
        subscription: { isActive: false },
      };
    }
    throw fail('billing.subscription_inactive');
  }

  async function cancel(user: User): Promise<{ success: boolean; message: string }> {
    const provider = requireProvider();
    await limit(user);
    const current = currentSubscription(await deps.billing.subscriptionsOf(user.id));
    if (current?.status === 'CANCELLED' && current.cancelAtPeriodEnd) {
      return {
        success: true,
        message: 'Your subscription is already cancelled. You keep Pro until the end of the paid period.',
      };
    }
    if (!current || (current.status !== 'ACTIVE' && current.status !== 'SUSPENDED')) {
      throw fail('billing.no_subscription');
    }
    const id = current.providerSubscriptionId;
    // Store the paid-through date first: PayPal drops next_billing_time once cancelled.
    const before = await fetchSnapshot(id);
    if (before) await sync(before);
    try {
      await provider.cancelSubscription(id, 'Cancelled by the subscriber in Social Media Toolkit');
    } catch (err) {
      log.error({ err, subscriptionId: id }, 'cancel failed');
      throw fail('billing.provider_error', { variant: 'cancel' });
    }
    const fresh = await deps.billing.findSubscription(provider.kind, id);
    if (fresh) await deps.billing.markCancelRequested(fresh.id, fresh.paidThrough);
    const after = await fetchSnapshot(id).catch(() => null);
    if (after) await sync(after);
    log.info({ userId: user.id, subscriptionId: id }, 'subscription cancelled');
    return {
      success: true,
      message: 'Your subscription has been cancelled. You keep Pro until the end of the paid period.',
    };
  }

  async function status(user: User): Promise<SubscriptionStatus> {
    const current = currentSubscription(await deps.billing.subscriptionsOf(user.id));
    const t = now();
    const subscription = current
      ? {
          status: userStatusOf(current.status),
          nextBillingTime: current.status === 'ACTIVE' ? (current.nextBillingTime?.toISOString() ?? null) : null,
          cancelAtPeriodEnd: current.cancelAtPeriodEnd && !!current.paidThrough && current.paidThrough > t,
          paidThrough: current.paidThrough?.toISOString() ?? null,
        }
      : null;
    return subscriptionStatusOf(user, subscription, t);
  }

  const testCheckout = {
    /** The built-in test checkout stands in for PayPal on this server. */
    enabled: !!deps.testCheckout,
    view(id: string) {
      const c = deps.testCheckout?.checkout(id);
      if (!c) throw fail('billing.checkout_not_found');
      return c;
    },
    approve(id: string): string {
      const to = deps.testCheckout?.approve(id);
      if (!to) throw fail('billing.checkout_not_found');
      return to;
    },
    abandon(id: string): string {
      const to = deps.testCheckout?.abandon(id);
      if (!to) throw fail('billing.checkout_not_found');
      return to;
    },
  };

  const events = createBillingEvents({
    billing: deps.billing,
    provider: deps.provider,
    verifier: deps.verifier,
    log,
    now,
    sync,
    fetchSnapshot,
  });

  return { create, confirm, cancel, status, sync, ...events, testCheckout };
}
export type BillingService = ReturnType<typeof createBillingService>;

// Webhooks and reconciliation: both end in `sync` (re-read the subscription, store it), so the
// order, duplication or absence of events does not change the outcome.
import type { Logger } from 'pino';
import type { ScheduledTask } from './schedules.service.js';
import { fail } from '../errors.js';
import type { User } from '../db/repositories/users.repository.js';
import type { BillingRepository } from '../db/repositories/billing.repository.js';
import type { BillingProvider, ProviderSubscription } from '../adapters/paypal/types.js';
import type { WebhookHeaders, WebhookVerifier } from '../adapters/paypal/webhook-verifier.js';

const HANDLED_EVENTS = new Set([
  'BILLING.SUBSCRIPTION.CREATED',
  'BILLING.SUBSCRIPTION.ACTIVATED',
  'BILLING.SUBSCRIPTION.UPDATED',
  'BILLING.SUBSCRIPTION.CANCELLED',
  'BILLING.SUBSCRIPTION.SUSPENDED',
  'BILLING.SUBSCRIPTION.EXPIRED',
  'BILLING.SUBSCRIPTION.RE-ACTIVATED',
  'BILLING.SUBSCRIPTION.PAYMENT.FAILED',
  'PAYMENT.SALE.COMPLETED',
  'PAYMENT.SALE.REFUNDED',
  'PAYMENT.SALE.REVERSED',
]);

export function createBillingEvents(deps: {
  billing: BillingRepository;
  provider: BillingProvider | null;
  verifier: WebhookVerifier | null;
  log: Logger;
  now: () => Date;
  sync: (snap: ProviderSubscription) => Promise<User | null>;
  fetchSnapshot: (id: string) => Promise<ProviderSubscription | null>;
}) {
  const { log, now, sync, fetchSnapshot } = deps;
  async function handleWebhook(
    headers: WebhookHeaders,
    raw: Buffer,
  ): Promise<{ result: 'processed' | 'duplicate' | 'ignored' }> {
    if (!deps.verifier || deps.provider?.kind !== 'paypal') {
      throw fail('billing.webhooks_unavailable');
    }
    const verdict = await deps.verifier.verify(headers, raw);
    if (!verdict.ok) {
      log.warn({ reason: verdict.reason, transmissionId: headers.transmissionId }, 'webhook refused');
      throw fail('billing.webhook_invalid');
    }
    let event: { id?: string; event_type?: string; resource_type?: string; resource?: Record<string, unknown> };
    try {
      event = JSON.parse(raw.toString('utf8'));
    } catch {
      throw fail('billing.webhook_invalid', { variant: 'not_json' });
    }
    if (typeof event.id !== 'string' || typeof event.event_type !== 'string') {
      throw fail('billing.webhook_invalid', { variant: 'no_id' });
    }
    const type = event.event_type;
    const resource = event.resource ?? {};
    const subId = type.startsWith('PAYMENT.SALE.')
      ? typeof resource.billing_agreement_id === 'string'
        ? resource.billing_agreement_id
        : null // a sale without it is not a subscription payment
      : type.startsWith('BILLING.SUBSCRIPTION.') && typeof resource.id === 'string'
        ? resource.id
        : null;
    if ((await deps.billing.recordEvent({ id: event.id, type, resourceId: subId, payload: event })) === 'processed') {
      return { result: 'duplicate' };
    }
    let result: 'processed' | 'ignored' = 'ignored';
    if (subId && HANDLED_EVENTS.has(type)) {
      // Order-independent: whatever the event says, re-read the subscription and store that.
      // A provider failure propagates as 5xx so PayPal delivers the event again later.
      const snap = await fetchSnapshot(subId);
      if (snap && (await sync(snap))) result = 'processed';
    }
    await deps.billing.markEventProcessed(event.id);
    return { result };
  }

  /** Re-reads subscriptions whose stored state may be stale (missed webhooks, renewals due). */
  async function reconcile(opts: { syncedMoreThanMsAgo?: number } = {}): Promise<{ checked: number; failed: number }> {
    if (!deps.provider) return { checked: 0, failed: 0 };
    const t = now().getTime();
    const syncedBefore = new Date(t - (opts.syncedMoreThanMsAgo ?? 12 * 3600_000));
    const rows = await deps.billing.staleSubscriptions(syncedBefore, new Date(t - 2 * 86400_000), new Date(t));
    let failed = 0;
    for (const row of rows) {
      if (row.provider !== deps.provider.kind) continue;
      try {
        const snap = await deps.provider.getSubscription(row.providerSubscriptionId);
        if (snap) await sync(snap);
      } catch (err) {
        failed++;
        log.warn({ err, subscriptionId: row.providerSubscriptionId }, 'reconciliation lookup failed');
      }
    }
    if (rows.length) log.info({ checked: rows.length, failed }, 'billing reconciliation done');
    return { checked: rows.length, failed };
  }

  /** Scheduled: daily, the first pass within a minute of a fresh install (schedules.service.ts). */
  const reconciliationTask: ScheduledTask = {
    name: 'billing-reconciliation',
    intervalMs: 24 * 3600_000,
    run: () => reconcile(),
  };

  /** The test checkout's approval page: what it shows, and where its buttons send the browser. */

  return { handleWebhook, reconcile, reconciliationTask };
}

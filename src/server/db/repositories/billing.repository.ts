// Billing storage: subscriptions (one row per provider subscription, plus a short-lived
// 'CREATING' row that serialises checkouts per user) and received webhook events.
import crypto from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { billingEvents, subscriptions, users } from '../schema.js';
import type { NewUser, User } from './users.repository.js';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type SubscriptionPatch = Pick<
  typeof subscriptions.$inferInsert,
  'planId' | 'status' | 'nextBillingTime' | 'paidThrough' | 'cancelAtPeriodEnd' | 'statusUpdatedAt' | 'failedPayments'
>;

export type CheckoutClaim =
  | { kind: 'reuse'; approvalUrl: string; status: string }
  | { kind: 'wait'; rowId: number }
  | { kind: 'new'; rowId: number; requestId: string };

export const CREATING = 'CREATING';

export function createBillingRepository(db: Db) {
  return {
    async findSubscription(provider: string, providerSubscriptionId: string): Promise<SubscriptionRow | undefined> {
      const [row] = await db
        .select()
        .from(subscriptions)
        .where(
          and(eq(subscriptions.provider, provider), eq(subscriptions.providerSubscriptionId, providerSubscriptionId)),
        );
      return row;
    },
    async findSubscriptionById(id: number): Promise<SubscriptionRow | undefined> {
      const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id));
      return row;
    },
    async subscriptionsOf(userId: string): Promise<SubscriptionRow[]> {
      return db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, userId))
        .orderBy(asc(subscriptions.createdAt), asc(subscriptions.id));
    },

    /**
     * One checkout per user at a time: under a lock on the user row, reuse an open approval link,
     * wait for a create already in flight, or claim a new one (its id becomes PayPal-Request-Id).
     */
    async claimCheckout(
      userId: string,
      provider: string,
      reuseSince: Date,
      inFlightSince: Date,
    ): Promise<CheckoutClaim> {
      return db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
        const open = await tx
          .select()
          .from(subscriptions)
          .where(
            and(
              eq(subscriptions.userId, userId),
              eq(subscriptions.provider, provider),
              inArray(subscriptions.status, [CREATING, 'APPROVAL_PENDING']),
            ),
          )
          .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id));
        for (const row of open) {
          if (row.status === CREATING && row.createdAt > inFlightSince) return { kind: 'wait', rowId: row.id } as const;
          if (row.status === 'APPROVAL_PENDING' && row.approvalUrl && row.createdAt > reuseSince) {
            return { kind: 'reuse', approvalUrl: row.approvalUrl, status: row.status } as const;
          }
        }
        const requestId = crypto.randomUUID();
        const [row] = await tx
          .insert(subscriptions)
          .values({ userId, provider, providerSubscriptionId: `pending:${requestId}`, status: CREATING })
          .returning({ id: subscriptions.id });
        return { kind: 'new', rowId: row.id, requestId } as const;
      });
    },
    /** The provider answered: the claim row becomes the subscription (or merges into a row a webhook already made). */
    async completeCheckout(
      rowId: number,
      data: {
        providerSubscriptionId: string;
        status: string;
        planId: string | null;
        approvalUrl: string | null;
        statusUpdatedAt: Date | null;
      },
    ) {
      await db.transaction(async (tx) => {
        const [claim] = await tx.select().from(subscriptions).where(eq(subscriptions.id, rowId));
        if (!claim) return;
        const [existing] = await tx
          .select()
          .from(subscriptions)
          .where(
            and(
              eq(subscriptions.provider, claim.provider),
              eq(subscriptions.providerSubscriptionId, data.providerSubscriptionId),
            ),
          );
        if (existing) {
          await tx
            .update(subscriptions)
            .set({ approvalUrl: data.approvalUrl, updatedAt: new Date() })
            .where(eq(subscriptions.id, existing.id));
          await tx.delete(subscriptions).where(eq(subscriptions.id, rowId));
          return;
        }
        await tx
          .update(subscriptions)
          .set({ ...data, lastSyncedAt: new Date(), updatedAt: new Date() })
          .where(eq(subscriptions.id, rowId));
      });
    },
    async dropCheckout(rowId: number): Promise<void> {
      await db.delete(subscriptions).where(and(eq(subscriptions.id, rowId), eq(subscriptions.status, CREATING)));
    },

    /**
     * Stores a provider snapshot (unless an equal-or-newer one is stored) and recomputes the user's
     * entitlement from all their subscriptions, in one transaction under the user-row lock.
     */
    async applySnapshot(
      userId: string,
      provider: string,
      providerSubscriptionId: string,
      patch: SubscriptionPatch,
      derive: (subs: SubscriptionRow[], user: User) => Partial<NewUser>,
    ): Promise<{ user: User; stale: boolean }> {
      return db.transaction(async (tx) => {
        const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
        const [row] = await tx
          .select()
          .from(subscriptions)
          .where(
            and(eq(subscriptions.provider, provider), eq(subscriptions.providerSubscriptionId, providerSubscriptionId)),
          );
        const stale = !!(row?.statusUpdatedAt && patch.statusUpdatedAt && patch.statusUpdatedAt < row.statusUpdatedAt);
        const now = new Date();
        if (!row) {
          await tx
            .insert(subscriptions)
            .values({ userId, provider, providerSubscriptionId, ...patch, lastSyncedAt: now });
        } else if (!stale) {
          // The paid-through date only moves forward (PayPal drops next_billing_time on cancel).
          const paidThrough = maxDate(row.paidThrough, patch.paidThrough ?? null);
          await tx
            .update(subscriptions)
            .set({
              ...patch,
              paidThrough,
              cancelAtPeriodEnd: patch.cancelAtPeriodEnd || row.cancelAtPeriodEnd,
              lastSyncedAt: now,
              updatedAt: now,
            })
            .where(eq(subscriptions.id, row.id));
        } else {
          await tx.update(subscriptions).set({ lastSyncedAt: now }).where(eq(subscriptions.id, row.id));
        }
        const subs = await tx
          .select()
          .from(subscriptions)
          .where(eq(subscriptions.userId, userId))
          .orderBy(asc(subscriptions.createdAt), asc(subscriptions.id));
        const [updated] = await tx
          .update(users)
          .set({ ...derive(subs, user), updatedAt: now })
          .where(eq(users.id, userId))
          .returning();
        return { user: updated, stale };
      });
    },
    async markCancelRequested(id: number, paidThrough: Date | null): Promise<void> {
      await db
        .update(subscriptions)
        .set({ cancelAtPeriodEnd: true, paidThrough, updatedAt: new Date() })
        .where(eq(subscriptions.id, id));
    },

    /** Records a webhook event; 'processed' when it was already handled (a duplicate delivery). */
    async recordEvent(e: {
      id: string;
      type: string;
      resourceId: string | null;
      payload: unknown;
    }): Promise<'new' | 'processed'> {
      const inserted = await db
        .insert(billingEvents)
        .values(e)
        .onConflictDoNothing()
        .returning({ id: billingEvents.id });
      if (inserted.length) return 'new';
      const [row] = await db
        .select({ processedAt: billingEvents.processedAt })
        .from(billingEvents)
        .where(eq(billingEvents.id, e.id));
      return row?.processedAt ? 'processed' : 'new';
    },
    async markEventProcessed(id: string): Promise<void> {
      await db.update(billingEvents).set({ processedAt: new Date() }).where(eq(billingEvents.id, id));
    },
    async countEvents(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(billingEvents);
      return row.n;
    },

    /** Subscriptions whose stored state may be out of date (missed webhooks, renewals due). */
    async staleSubscriptions(
      syncedBefore: Date,
      openedAfter: Date,
      now: Date,
      limit = 200,
    ): Promise<SubscriptionRow[]> {
      return db
        .select()
        .from(subscriptions)
        .where(
          and(
            or(
              inArray(subscriptions.status, ['APPROVED', 'ACTIVE', 'SUSPENDED']),
              and(eq(subscriptions.status, 'APPROVAL_PENDING'), gt(subscriptions.createdAt, openedAfter)),
            ),
            or(
              isNull(subscriptions.lastSyncedAt),
              lt(subscriptions.lastSyncedAt, syncedBefore),
              lt(subscriptions.nextBillingTime, now),
            ),
          ),
        )
        .orderBy(asc(subscriptions.lastSyncedAt))
        .limit(limit);
    },
  };
}

function maxDate(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a > b ? a : b;
}

export type BillingRepository = ReturnType<typeof createBillingRepository>;

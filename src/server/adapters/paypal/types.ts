// The subset of PayPal's Subscriptions API the billing service relies on. The built-in test
// checkout implements the same interface and returns the same JSON shapes.
import { mapUpstream, type HostMap } from '../http/host-map.js';

/** PayPal `subscription_status`. */
export type ProviderStatus = 'APPROVAL_PENDING' | 'APPROVED' | 'ACTIVE' | 'SUSPENDED' | 'CANCELLED' | 'EXPIRED';

/** A subscription as `GET /v1/billing/subscriptions/{id}` returns it (fields we read). */
export interface ProviderSubscription {
  id: string;
  status: ProviderStatus | string;
  plan_id?: string;
  custom_id?: string;
  status_update_time?: string;
  create_time?: string;
  billing_info?: {
    next_billing_time?: string;
    failed_payments_count?: number;
    last_payment?: { time?: string; amount?: { value?: string; currency_code?: string } };
    last_failed_payment?: { time?: string; reason_code?: string; next_payment_retry_time?: string };
  };
  links?: Array<{ href: string; rel: string; method?: string }>;
}

export interface CreateSubscriptionInput {
  customId: string;
  returnUrl: string;
  cancelUrl: string;
  /** Sent as PayPal-Request-Id: a retried create returns the first answer instead of a second subscription. */
  requestId: string;
}

export interface BillingProvider {
  kind: 'paypal' | 'test';
  planId: string;
  createSubscription(input: CreateSubscriptionInput): Promise<ProviderSubscription>;
  /** null when the provider does not know the id. */
  getSubscription(id: string): Promise<ProviderSubscription | null>;
  /** Cancels at once (PayPal has no "at period end"); already cancelled counts as success. */
  cancelSubscription(id: string, reason: string): Promise<void>;
}

/** A PayPal REST failure, keeping the machine-readable parts (`details[0].issue`, debug id). */
export class PayPalError extends Error {
  constructor(
    readonly status: number,
    override readonly name: string,
    readonly issue: string | undefined,
    readonly debugId: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

export function approveLink(sub: ProviderSubscription): string | undefined {
  // By rel, never by position: the sandbox lists the approve link last.
  return sub.links?.find((l) => l.rel === 'approve')?.href;
}

/** Applies UPSTREAM_HOST_MAP (tests only; refused in production by config) to an outbound URL. */
/** A PayPal URL re-routed by UPSTREAM_HOST_MAP (tests), with the one matcher every client uses. */
export function reroute(url: string, hostMap: HostMap): string {
  return mapUpstream(new URL(url), hostMap)?.href ?? url;
}

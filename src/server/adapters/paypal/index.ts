// Chooses the billing provider from configuration: PayPal when its credentials are set, the
// built-in test checkout when config allows it (localhost PUBLIC_URL or TEST_CHECKOUT=on, never in
// production), nothing otherwise (subscribing answers 503 billing.unavailable).
import type { Config } from '../../config.js';
import type { HttpClient } from '../http/http-client.js';
import { createPayPalClient, PAYPAL_API_BASES, type PayPalClient } from './paypal.client.js';
import { createWebhookVerifier, type WebhookVerifier } from './webhook-verifier.js';
import { createTestCheckoutProvider, type TestCheckoutProvider } from './test-checkout.provider.js';
import type { BillingProvider } from './types.js';

export interface BillingAdapters {
  provider: BillingProvider | null;
  verifier: WebhookVerifier | null;
  testCheckout: TestCheckoutProvider | null;
  /** Why there is no provider (logged at start). */
  note?: string;
}

/** The PayPal REST client from configuration, or null when PAYPAL_CLIENT_ID/SECRET are not set. */
export function payPalClientFrom(config: Config): PayPalClient | null {
  // config.ts checked that both come together.
  const { PAYPAL_CLIENT_ID: id, PAYPAL_CLIENT_SECRET: secret } = config;
  if (!id || !secret) return null;
  return createPayPalClient({
    apiBase: config.PAYPAL_API_BASE ?? PAYPAL_API_BASES[config.PAYPAL_ENV],
    clientId: id,
    clientSecret: secret,
    planId: config.PAYPAL_PLAN_ID ?? '',
    hostMap: config.UPSTREAM_HOST_MAP,
  });
}

/** `http`: the guarded client (ctx.adapters.http), for certificates named by webhook deliveries. */
export function createBillingAdapters(config: Config, http?: HttpClient): BillingAdapters {
  const client = payPalClientFrom(config);
  if (client) {
    if (!config.PAYPAL_PLAN_ID) {
      return {
        provider: null,
        verifier: null,
        testCheckout: null,
        note: 'PAYPAL_PLAN_ID is not set: run `npm run cli -- billing:setup` and set it',
      };
    }
    const verifier = config.PAYPAL_WEBHOOK_ID
      ? createWebhookVerifier({
          webhookId: config.PAYPAL_WEBHOOK_ID,
          http,
          hostMap: config.UPSTREAM_HOST_MAP,
          certBase: config.PAYPAL_API_BASE,
        })
      : null;
    return {
      provider: client,
      verifier,
      testCheckout: null,
      note: verifier ? undefined : 'PAYPAL_WEBHOOK_ID is not set: webhooks are refused',
    };
  }
  if (!config.testCheckoutAllowed) {
    const why = config.isProduction
      ? ''
      : ' (the test checkout runs only with a localhost PUBLIC_URL or TEST_CHECKOUT=on)';
    return {
      provider: null,
      verifier: null,
      testCheckout: null,
      note: `PayPal is not configured: subscribing is unavailable${why}`,
    };
  }
  const testCheckout = createTestCheckoutProvider({ dataDir: config.DATA_DIR, publicUrl: config.publicUrl });
  return { provider: testCheckout, verifier: null, testCheckout };
}

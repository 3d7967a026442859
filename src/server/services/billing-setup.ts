// `npm run cli -- billing:setup`: creates the PayPal catalog product and the $9.99 USD monthly
// plan (never expiring) once, and prints the plan id to put in PAYPAL_PLAN_ID.
import type { Config } from '../config.js';
import { fail } from '../errors.js';
import { payPalClientFrom } from '../adapters/paypal/index.js';
import { PRO_PRICE_USD } from '../../shared/constants.js';

export async function billingSetup(config: Config): Promise<string> {
  const client = payPalClientFrom(config);
  if (!client) {
    throw fail('cli.billing_unconfigured');
  }
  const product = await client.createProduct({
    name: 'Social Media Toolkit Pro',
    description: 'Pro plan: unlimited downloads and every premium tool',
  });
  const plan = await client.createPlan(product.id);
  return [
    `Created PayPal product ${product.id} and plan ${plan.id} ($${PRO_PRICE_USD} USD every month, no end date; status ${plan.status}).`,
    `Set PAYPAL_PLAN_ID=${plan.id} in the server's environment.`,
  ].join('\n');
}

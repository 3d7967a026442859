import { z } from 'zod';

export const subscriptionStatusResponse = z.object({
  downloadCount: z.number().int(),
  isProUser: z.boolean(),
  subscriptionStatus: z.string(),
  canDownload: z.boolean(),
  remainingDownloads: z.number().int(),
  subscription: z
    .object({
      status: z.string(),
      nextBillingTime: z.string().nullable(),
      cancelAtPeriodEnd: z.boolean(),
      /** End of the period already paid for (Pro lasts until then after a cancel). */
      paidThrough: z.string().nullable().optional(),
    })
    .nullable(),
});
export type SubscriptionStatus = z.infer<typeof subscriptionStatusResponse>;

export const subscriptionCreateResponse = z.object({
  approvalUrl: z.string().nullable(),
  status: z.string(),
});
export type SubscriptionCreateResponse = z.infer<typeof subscriptionCreateResponse>;

export const subscriptionConfirmRequest = z.object({
  subscriptionId: z
    .string({ error: 'Missing subscription information. Please try subscribing again.' })
    .trim()
    .min(1, 'Missing subscription information. Please try subscribing again.')
    .max(64, 'That subscription id is not valid.')
    .regex(/^[A-Za-z0-9-]+$/, 'That subscription id is not valid.'),
  // PayPal also returns these; the server never relies on them.
  token: z.string().max(255).optional().nullable(),
  baToken: z.string().max(255).optional().nullable(),
});
export type SubscriptionConfirmRequest = z.infer<typeof subscriptionConfirmRequest>;

export const subscriptionConfirmResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  subscription: z.object({ isActive: z.boolean() }),
});
export type SubscriptionConfirmResponse = z.infer<typeof subscriptionConfirmResponse>;

export const subscriptionCancelResponse = z.object({
  success: z.boolean(),
  message: z.string(),
});
export type SubscriptionCancelResponse = z.infer<typeof subscriptionCancelResponse>;

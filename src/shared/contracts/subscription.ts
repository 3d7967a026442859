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
    })
    .nullable(),
});
export type SubscriptionStatus = z.infer<typeof subscriptionStatusResponse>;

import { useQuery } from '@tanstack/react-query';
import type { SubscriptionStatus } from '@shared/contracts/subscription';

export const SUBSCRIPTION_STATUS_KEY = ['/api/subscription/status'] as const;

/** Always refetched (mount and focus), never retried; invalidate after any quota or billing change. */
export function useSubscriptionStatus(enabled = true) {
  return useQuery<SubscriptionStatus>({
    queryKey: SUBSCRIPTION_STATUS_KEY,
    enabled,
    staleTime: 0,
    retry: false,
    refetchOnMount: true,
    refetchOnWindowFocus: true,
  });
}

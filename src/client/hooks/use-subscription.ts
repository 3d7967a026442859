import { useQuery } from '@tanstack/react-query';
import { subscriptionStatusGet } from '../lib/api';

export const SUBSCRIPTION_STATUS_KEY = ['/api/subscription/status'] as const;

/** Always refetched (mount and focus), never retried; invalidate after any quota or billing change. */
export function useSubscriptionStatus(enabled = true) {
  return useQuery({
    queryKey: SUBSCRIPTION_STATUS_KEY,
    queryFn: subscriptionStatusGet,
    enabled,
    staleTime: 0,
    retry: false,
    refetchOnMount: true,
    refetchOnWindowFocus: true,
  });
}

import { useQuery } from '@tanstack/react-query';
import type { AuthUser } from '@shared/contracts/auth';
import { getQueryFn } from '../lib/query-client';

/** The current user: null when signed out. A failure counts as signed out, silently. */
export function useAuth() {
  const { data, isLoading } = useQuery<AuthUser | null>({
    queryKey: ['/api/auth/user'],
    queryFn: getQueryFn({ on401: 'returnNull' }),
    retry: false,
    staleTime: 0,
    refetchOnMount: true,
    refetchOnWindowFocus: true,
  });
  return { user: data ?? null, isLoading, isAuthenticated: !!data };
}

import { useQuery } from '@tanstack/react-query';
import type { AuthUser } from '@shared/contracts/auth';
import { authSessionGet } from '../lib/api';

/**
 * The current user: null when signed out. Asked of /api/auth/session, which answers 200 either way,
 * so a visitor's console shows no failed request (decision 0904). The key stays the founding
 * ['/api/auth/user'], which every sign-in and subscription change invalidates. A failure counts as
 * signed out, silently.
 */
export function useAuth() {
  const { data, isLoading } = useQuery<AuthUser | null>({
    queryKey: ['/api/auth/user'],
    queryFn: () =>
      authSessionGet().then(
        (s) => s.user,
        () => null,
      ),
    retry: false,
    staleTime: 0,
    refetchOnMount: true,
    refetchOnWindowFocus: true,
  });
  return { user: data ?? null, isLoading, isAuthenticated: !!data };
}

// The query defaults of decision 0092 'Data fetching'. Every query names its typed call (lib/api.ts);
// errors are ApiErrors (lib/api-error.ts).
import { QueryClient, type DefaultOptions } from '@tanstack/react-query';

/** Shared with the first screens' server render (entry-server.tsx), so both render alike. */
export const queryOptions: DefaultOptions = {
  queries: {
    refetchInterval: false,
    refetchOnWindowFocus: false,
    staleTime: Infinity,
    retry: false,
  },
  mutations: { retry: false },
};

export const queryClient = new QueryClient({ defaultOptions: queryOptions });

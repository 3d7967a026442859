// The API client and query defaults of SPEC 7 'General rules' and SPEC 4 'Data fetching'.
import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { renderError, type ErrorParamValues } from '@shared/error-messages';

/** A non-OK answer becomes an Error whose message is `status: body` (or the status text). */
async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = (await res.text()) || res.statusText;
    throw new Error(`${res.status}: ${text}`);
  }
}

/** Sends a request with credentials; a body goes as JSON with a JSON content type. */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: data !== undefined ? { 'Content-Type': 'application/json' } : {},
    body: data !== undefined ? JSON.stringify(data) : undefined,
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

type UnauthorizedBehavior = 'returnNull' | 'throw';

/** The default read: GET of the query key parts joined with '/'. */
export const getQueryFn =
  <T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T> =>
  async ({ queryKey }) => {
    const res = await fetch(queryKey.join('/'), { credentials: 'include' });
    if (options.on401 === 'returnNull' && res.status === 401) return null as T;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };

/**
 * The text of an API error body `{ message, code, params? }`: rendered from the shared error
 * catalogue by code and params (where a translation would plug in), else the server's `message`.
 */
export function messageFor(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const { message, code, params } = body as { message?: unknown; code?: unknown; params?: unknown };
  const rendered = renderError(code, params && typeof params === 'object' ? (params as ErrorParamValues) : undefined);
  return rendered ?? (typeof message === 'string' ? message : undefined);
}

/** The message of an error raised by apiRequest ('403: {"message":...}'), if any. */
export function serverMessage(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const m = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  if (!m) return undefined;
  try {
    return messageFor(JSON.parse(m[1]));
  } catch {
    return m[1] || undefined;
  }
}

/** The parsed JSON body of an error raised by apiRequest, if any. */
export function errorBody(error: unknown): Record<string, unknown> | undefined {
  if (!(error instanceof Error)) return undefined;
  const m = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  try {
    return m ? JSON.parse(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: 'throw' }),
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Infinity,
      retry: false,
    },
    mutations: { retry: false },
  },
});

// The one way the client calls the API: credentials included, a body as JSON, and every failure
// (an answer that is not OK, or no answer at all) thrown as an ApiError with its status and code.
import { ApiError } from './api-error';

export interface CallOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  keepalive?: boolean;
}

/** Sends the request; the Response when it is OK, else an ApiError. */
export async function send(method: string, url: string, body?: unknown, opts: CallOptions = {}): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...opts.headers },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      credentials: 'include',
      signal: opts.signal,
      keepalive: opts.keepalive,
    });
  } catch (err) {
    // An abort stays an abort, so callers that cancel can tell it apart.
    if (opts.signal?.aborted) throw err;
    throw ApiError.network(err);
  }
  if (!res.ok) throw await ApiError.fromResponse(res);
  return res;
}

/** The answer's JSON, typed by the caller's contract (see api.ts). */
export async function sendJson<T>(method: string, url: string, body?: unknown, opts?: CallOptions): Promise<T> {
  return (await (await send(method, url, body, opts)).json()) as T;
}

/** A call that may answer 202 with a media job instead of waiting (`Prefer: respond-async`). */
export async function sendAsync<T, J>(
  method: string,
  url: string,
  body: unknown,
  opts: CallOptions & { prefer: string },
): Promise<{ done: true; result: T } | { done: false; job: J }> {
  const res = await send(method, url, body, { ...opts, headers: { ...opts.headers, Prefer: opts.prefer } });
  return res.status === 202
    ? { done: false, job: (await res.json()) as J }
    : { done: true, result: (await res.json()) as T };
}

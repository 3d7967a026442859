/**
 * A `fetch`-compatible function over the guarded client, for libraries that take a fetch of their
 * own (openid-client's `customFetch`, aws4fetch in the S3 media store). Not a second HTTP stack:
 * requests go through an operator client (operator-client.ts) of the configured endpoint, so the
 * rule of decision 0017 holds: that origin as configured (http, any port, loopback), nothing else,
 * redirects leaving it refused with `upstream.blocked` before any connection, `timeoutMs` for the
 * headers and every silence in a body, bodies cut at `maxBytes` (`upstream.too_large`).
 *
 * `publicOrigins` (optional, read at each request) names further origins the caller learned from
 * the endpoint itself (an OIDC provider's token endpoint on another host): those go through the
 * ordinary guarded client, user-URL rules: https, default port, public addresses only (checked at
 * connect time), redirects only within the same host. Never configuration, so never trusted more.
 *
 * Bodies stream both ways: a ReadableStream request body is sent as it is read, and the answer's
 * body is a stream (nothing is read whole here). `redirect: 'manual'` returns a 3xx as it is.
 *
 *   const s3Fetch = createGuardedFetch({ endpoint: cfg.endpoint, timeoutMs: 60_000, maxBytes: 5 * 2 ** 30 });
 *   const res = await s3Fetch(request);  // a Response; errors are HttpClientError (upstream.*)
 */
import { PassThrough, Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createHttpClient, type LookupFn } from './http-client.js';
import { createOperatorClient } from './operator-client.js';
import type { HostMap } from './host-map.js';
import { translate } from './response.js';

export interface GuardedFetchOptions {
  /** The configured URL (any path): its origin is trusted as configured. */
  endpoint: string;
  /** Longest wait for headers, and longest silence while a body streams (either way). */
  timeoutMs: number;
  /** Largest answer body, streamed or not. */
  maxBytes: number;
  /** Further origins named by the endpoint itself, reached under the user-URL rules (see above). */
  publicOrigins?: () => readonly string[];
  hostMap?: HostMap;
  lookup?: LookupFn;
}

export type GuardedFetch = ((input: string | URL | Request, init?: RequestInit) => Promise<Response>) & {
  close(): Promise<void>;
};

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE']);
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

export function createGuardedFetch(o: GuardedFetchOptions): GuardedFetch {
  const operator = createOperatorClient({
    endpoint: o.endpoint,
    timeoutMs: o.timeoutMs,
    maxBytes: o.maxBytes,
    hostMap: o.hostMap,
    lookup: o.lookup,
  });
  const shared = o.publicOrigins
    ? createHttpClient({
        hostMap: { ...o.hostMap },
        lookup: o.lookup,
        connectTimeoutMs: Math.min(10_000, o.timeoutMs),
        headersTimeoutMs: o.timeoutMs,
        idleTimeoutMs: o.timeoutMs,
      })
    : null;

  const guardedFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const req = input instanceof Request ? input : null;
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init.method ?? req?.method ?? 'GET').toUpperCase();
    if (!METHODS.has(method)) throw new TypeError(`guarded fetch: method ${method} is not supported`);
    const headers = Object.fromEntries(new Headers(init.headers ?? req?.headers).entries());
    const body = toBody(init.body !== undefined ? init.body : (req?.body ?? null), headers);
    const redirect = init.redirect ?? req?.redirect ?? 'follow';
    const r = {
      method: method as 'GET',
      headers,
      body,
      signal: init.signal ?? req?.signal ?? undefined,
      ...(redirect === 'follow' ? {} : { maxRedirects: 0 }),
    };
    const res =
      shared && url.origin !== operator.origin && o.publicOrigins?.().includes(url.origin)
        ? await shared.request(url, {
            ...r,
            allow: [url.hostname],
            maxRedirects: r.maxRedirects ?? 3,
            maxBytes: o.maxBytes,
          })
        : await operator.request(url, r);
    const noBody = method === 'HEAD' || NULL_BODY_STATUS.has(res.status);
    if (noBody) res.body.resume();
    if (redirect === 'error' && res.status >= 300 && res.status < 400) {
      res.body.destroy();
      throw new TypeError(`guarded fetch: ${url.origin} answered with a redirect`);
    }
    const stream = noBody ? null : (Readable.toWeb(translated(res.body, r.signal)) as ReadableStream);
    const out = new Response(stream, { status: res.status, headers: toHeaders(res.headers) });
    Object.defineProperty(out, 'url', { value: res.url });
    return out;
  };
  return Object.assign(guardedFetch, {
    close: async () => {
      await Promise.all([operator.close(), shared?.close()]);
    },
  });
}

/** The body with its errors as the client's (a silence is `upstream.timeout`); a consumer that stops early frees the upstream. */
function translated(body: Readable, signal?: AbortSignal | null): Readable {
  const out = new PassThrough();
  body.on('error', (err) => out.destroy(translate(err, signal ?? undefined)));
  out.on('close', () => {
    if (!body.readableEnded) body.destroy();
  });
  return body.pipe(out);
}

function toBody(b: BodyInit | null, headers: Record<string, string>): string | Buffer | Readable | undefined {
  if (b === null || b === undefined) return undefined;
  if (typeof b === 'string') return b;
  if (b instanceof URLSearchParams) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded;charset=UTF-8';
    return b.toString();
  }
  if (b instanceof ArrayBuffer) return Buffer.from(b);
  if (ArrayBuffer.isView(b)) return Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  if (b instanceof ReadableStream) return Readable.fromWeb(b as NodeReadableStream);
  throw new TypeError('guarded fetch: this kind of request body is not supported');
}

function toHeaders(h: Record<string, string | string[] | undefined>): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(h)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
  }
  return out;
}

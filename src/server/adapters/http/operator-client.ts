/**
 * The guarded client for an endpoint the operator configured (PAYPAL_API_BASE, TRANSCRIBE_API_URL,
 * LLM_BASE_URL): one instance per service, built from that service's configured URL.
 *
 * Rule (docs/decisions/0017-operator-endpoints-guarded.md): the configured origin (scheme, host,
 * port) and nothing else. That origin is reached as configured, even over http, on any port, or
 * when it is or resolves to a private or loopback address (a local whisper server, a fake in
 * tests): the operator chose it. Any other URL, and every redirect leaving the origin (another
 * host, 169.254.169.254, another port or scheme), is refused with `upstream.blocked` before any
 * connection is made. Answers are read whole (or streamed: `body`) up to `maxBytes` (`upstream.too_large` beyond);
 * `timeoutMs` bounds the wait for headers and every silence in the body (callers add their own
 * overall deadline as a signal). UPSTREAM_HOST_MAP (tests) re-routes below this layer as usual.
 *
 * A user-supplied URL never gets this trust: build it from configuration only; user URLs go
 * through createHttpClient's allow-list and address checks.
 *
 *   const api = createOperatorClient({ endpoint: cfg.url, timeoutMs: 15_000, maxBytes: 1 << 20 });
 *   const res = await api.request(`${base}/v1/things`, { method: 'POST', headers, body, signal });
 *   res.status; res.header('retry-after'); await res.text(); await res.dump();
 */
import type { Readable } from 'node:stream';
import type { FormData } from 'undici';
import { createHttpClient } from './http-client.js';
import type { HttpResponse } from './response.js';
import type { HostMap } from './host-map.js';
import type { LookupFn } from './http-client.js';

export interface OperatorClientOptions {
  /** The configured URL (any path): its origin is the one this client may reach. */
  endpoint: string;
  /** Longest wait for the answer's headers, and longest silence while its body streams. */
  timeoutMs: number;
  /** Largest answer read whole (text/json/bytes). */
  maxBytes: number;
  /** UPSTREAM_HOST_MAP (tests; refused in production by config). */
  hostMap?: HostMap;
  /** Same-origin redirects followed (default 3); each is re-checked against the rule. */
  maxRedirects?: number;
  /** DNS resolver (tests). */
  lookup?: LookupFn;
}

export interface OperatorRequest {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  /** undici's FormData (`import { FormData } from 'undici'`), not the global one; a Readable streams. */
  body?: string | Buffer | FormData | Readable;
  signal?: AbortSignal;
  /** Overrides the client's redirect limit for this request (0 = return a 3xx as it is). */
  maxRedirects?: number;
}

export interface OperatorResponse {
  status: number;
  /** Final URL (after same-origin redirects). */
  url: string;
  header(name: string): string | undefined;
  headers: Record<string, string | string[] | undefined>;
  /** The body as a stream (relayed, not read whole), cut with `upstream.too_large` past maxBytes. */
  body: Readable;
  text(): Promise<string>;
  bytes(): Promise<Buffer>;
  /** Discard the body and free the connection (an answer not read must be dumped). */
  dump(): Promise<void>;
}

export function createOperatorClient(o: OperatorClientOptions) {
  const configured = new URL(o.endpoint);
  const http = createHttpClient({
    hostMap: { ...o.hostMap },
    lookup: o.lookup,
    trustedOrigin: configured.origin,
    connectTimeoutMs: Math.min(10_000, o.timeoutMs),
    headersTimeoutMs: o.timeoutMs,
    idleTimeoutMs: o.timeoutMs,
  });
  return {
    origin: configured.origin,
    async request(url: string | URL, r: OperatorRequest = {}): Promise<OperatorResponse> {
      const res: HttpResponse = await http.request(url, {
        allow: [configured.hostname], // informative: trustedOrigin decides
        allowHttp: true,
        method: r.method ?? 'GET',
        headers: r.headers,
        body: r.body,
        signal: r.signal,
        maxRedirects: r.maxRedirects ?? o.maxRedirects ?? 3,
        maxBytes: o.maxBytes,
      });
      return {
        status: res.status,
        url: res.url,
        header: (name) => res.header(name),
        headers: res.headers,
        body: res.body,
        text: () => res.text(o.maxBytes),
        bytes: () => res.bytes(o.maxBytes),
        dump: () => res.dump(),
      };
    },
    close: () => http.close(),
  };
}

export type OperatorClient = ReturnType<typeof createOperatorClient>;

/**
 * The one guarded HTTP client. Every outbound request to a URL that a user (or an outside page)
 * supplied goes through here. Build it once (ctx.adapters.http) and pass it to adapters.
 *
 *   const res = await ctx.adapters.http.request('https://www.video.example/v/1', {
 *     allow: ['www.video.example', '*.videocdn.example'],  // per-platform allow-list (exact or *.domain)
 *     jar,                     // optional CookieJar: sends matching cookies, stores Set-Cookie of every hop
 *     headers: { 'user-agent': '...' },
 *     signal,                  // abort = the upstream socket is destroyed
 *     maxRedirects: 5,         // 0 = return the 3xx itself (e.g. to read a short link's Location)
 *     maxBytes,                // optional ceiling for the streamed body (error once exceeded)
 *     bulk: true,              // a large file read once, start to end: lean transport (bulk-transport.ts)
 *   });
 *   res.status; res.url (final, real URL); res.headers; res.redirects
 *   await res.text()           // page body, refused above PAGE_MAX_BYTES (or text(limit))
 *   res.body                   // Node Readable for streaming (pipe it; backpressure is kept)
 *   res.release(chunk)         // optional: a body chunk's bytes have left the process (slabs.ts)
 *   await res.dump()           // discard the body and free the socket
 *
 * Guarantees: http(s) only (https unless `allowHttp`), default ports only, no userinfo, host must
 * match the allow-list, DNS answers are checked at connect time so a name resolving to a private,
 * loopback or link-local address is refused (no rebinding window: the checked address is the one
 * connected to), IP literals are checked too, every redirect is re-checked the same way, redirect
 * limit, connect / headers / idle-body timeouts, and (`transferLimits`) a floor on the rate and a
 * deadline for the whole transfer, so a site sending slowly cannot hold a slot (transfer-guard.ts).
 *
 * UPSTREAM_HOST_MAP (config, refused in production) re-routes below this layer: the request goes
 * to the mapped origin with the original `Host` header, while callers, the allow-list and the
 * cookie jar keep seeing the real URL. Only mapped targets may be loopback; a user URL never is.
 *
 * `trustedOrigin` (operator-client.ts only) turns an instance into the client of one endpoint the
 * operator configured: that exact origin is reachable as configured (http, any port, any address)
 * and every other URL, redirects included, is refused. Never built from a user-supplied URL.
 *
 * Errors are `HttpClientError` (an AppError): code `upstream.blocked` (400, refused by policy),
 * `upstream.too_large`, `upstream.timeout`, `upstream.unavailable` (424). Callers may re-map them.
 */
import dns from 'node:dns';
import net from 'node:net';
import { Readable } from 'node:stream';
import { Agent, request as undiciRequest, type Dispatcher, type FormData } from 'undici';
import { BulkUnsupported, bulkGet, type UpstreamResponse } from './bulk-transport.js';
import { createBulkPool } from './bulk-pool.js';
import { HttpClientError } from './http-errors.js';
import { blocked, translate, wrap, type HttpResponse } from './response.js';
import { hostAllowed, isPrivateAddress, normaliseHost, type HostPattern } from './address-policy.js';
import type { CookieJar } from './cookie-jar.js';
import { mapUpstream } from './host-map.js';
import { guardTransfer, type TransferLimits } from './transfer-guard.js';

export { HttpClientError, type HttpErrorKind } from './http-errors.js';
export { PAGE_MAX_BYTES, type HttpResponse } from './response.js';
export type { TransferLimits } from './transfer-guard.js';

export type LookupFn = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export interface HttpClientOptions {
  /** UPSTREAM_HOST_MAP: exact host or `*.domain` -> origin. Empty in production. */
  hostMap?: Record<string, string>;
  /** DNS resolver (tests inject one to simulate a name resolving to a private address). */
  lookup?: LookupFn;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  /** Longest silence allowed while a body is streaming. */
  idleTimeoutMs?: number;
  /** The one origin this instance may reach, as configured by the operator (operator-client.ts). */
  trustedOrigin?: string;
  /** A floor on the rate and a deadline for every transfer (transfer-guard.ts); none when absent. */
  transferLimits?: TransferLimits;
}

export interface RequestOptions {
  allow: readonly HostPattern[];
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  /**
   * A form must be undici's FormData: the global one does not encode through undici.request. A
   * Readable streams (an upload): it cannot be sent twice, so a redirect that would repeat it fails.
   */
  body?: string | Buffer | FormData | Readable;
  jar?: CookieJar;
  signal?: AbortSignal;
  maxRedirects?: number;
  maxBytes?: number;
  allowHttp?: boolean;
  /** A large GET body relayed start to end: use the lean transport (falls back to undici). */
  bulk?: boolean;
}

const defaultLookup: LookupFn = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export function createHttpClient(opts: HttpClientOptions = {}) {
  const hostMap = opts.hostMap ?? {};
  const resolve = opts.lookup ?? defaultLookup;
  const connectTimeout = opts.connectTimeoutMs ?? 10_000;
  const headersTimeout = opts.headersTimeoutMs ?? 15_000;
  const bodyTimeout = opts.idleTimeoutMs ?? 30_000;

  // net/tls call this at connect time, so the address we check is the address we connect to.
  const guardedLookup = (hostname: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    resolve(hostname).then(
      (answers) => {
        if (answers.length === 0)
          return cb(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }));
        const bad = answers.find((a) => isPrivateAddress(a.address));
        if (bad) return cb(Object.assign(new Error('private address refused'), { code: 'EPRIVATEADDR' }));
        if (options?.all) cb(null, answers);
        else cb(null, answers[0].address, answers[0].family);
      },
      (err) => cb(err),
    );
  };
  const guarded = new Agent({
    connect: { timeout: connectTimeout, lookup: guardedLookup as never },
    headersTimeout,
    bodyTimeout,
    maxRedirections: 0,
  } as Agent.Options);
  // Mapped targets and the trusted origin come from configuration, never from a user: a loopback
  // or private address is fine there.
  const mapped = new Agent({ connect: { timeout: connectTimeout }, headersTimeout, bodyTimeout } as Agent.Options);
  const bulkPool = createBulkPool();

  const mapTarget = (url: URL) => mapUpstream(url, hostMap);

  const trustedOrigin = opts.trustedOrigin;

  function check(url: URL, o: RequestOptions): void {
    if (trustedOrigin !== undefined) {
      // Exactly the configured origin (scheme, host, port): a redirect elsewhere stops here.
      if (!/^https?:$/.test(url.protocol) || url.origin !== trustedOrigin) throw blocked('endpoint');
      if (url.username || url.password) throw blocked('credentials');
      return;
    }
    if (url.protocol !== 'https:' && !(o.allowHttp && url.protocol === 'http:')) throw blocked('https');
    if (url.username || url.password) throw blocked('credentials');
    if (url.port && url.port !== (url.protocol === 'https:' ? '443' : '80')) throw blocked('port');
    const host = normaliseHost(url.hostname);
    if (!hostAllowed(host, o.allow)) throw blocked('host');
    if (net.isIP(host) && isPrivateAddress(host) && !mapTarget(url)) throw blocked('private');
  }

  async function send(
    url: URL,
    o: RequestOptions,
    method: string,
    body: RequestOptions['body'],
  ): Promise<UpstreamResponse> {
    const target = mapTarget(url);
    const direct = target !== null || trustedOrigin !== undefined;
    const headers: Record<string, string> = { ...o.headers };
    const cookie = o.jar?.headerFor(url);
    if (cookie) headers.cookie = cookie;
    try {
      if (o.bulk && method === 'GET' && body === undefined) {
        try {
          return await bulkGet({
            target: target ?? url,
            path: url.pathname + url.search,
            host: url.host,
            headers,
            lookup: direct ? undefined : (guardedLookup as never),
            signal: o.signal,
            connectTimeoutMs: connectTimeout,
            headersTimeoutMs: headersTimeout,
            idleTimeoutMs: bodyTimeout,
            pool: bulkPool,
          });
        } catch (err) {
          if (!(err instanceof BulkUnsupported)) throw err;
        }
      }
      if (target) headers.host = url.host;
      return await undiciRequest(target ?? url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        signal: o.signal,
        dispatcher: direct ? mapped : guarded,
        highWaterMark: 256 * 1024,
      });
    } catch (err) {
      throw translate(err, o.signal);
    }
  }

  async function request(input: string | URL, o: RequestOptions): Promise<HttpResponse> {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw blocked();
    }
    const startedAt = Date.now();
    const maxRedirects = o.maxRedirects ?? 5;
    const redirects: string[] = [];
    let method = o.method ?? 'GET';
    let body = o.body;
    for (;;) {
      check(url, o);
      const res = await send(url, o, method, body);
      o.jar?.setFromResponse(url, res.headers['set-cookie']);
      const location = res.headers.location;
      if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string' && maxRedirects > 0) {
        res.body.resume();
        if (redirects.length >= maxRedirects) throw new HttpClientError('unavailable', 'redirects');
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new HttpClientError('unavailable', 'broken_redirect');
        }
        redirects.push(next.href);
        if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        if (body instanceof Readable) {
          check(next, o); // a redirect leaving the policy is refused as such
          throw new HttpClientError('unavailable', 'upload_redirect');
        }
        url = next;
        continue;
      }
      if (opts.transferLimits) guardTransfer(res.body, opts.transferLimits, startedAt);
      return wrap(res, url.href, redirects, o);
    }
  }

  return {
    request,
    /** GET a page and read it whole, refusing bodies above `limit` bytes. */
    async getText(url: string | URL, o: RequestOptions & { limit?: number }) {
      const res = await request(url, o);
      return {
        status: res.status,
        url: res.url,
        headers: res.headers,
        redirects: res.redirects,
        text: await res.text(o.limit),
      };
    },
    async close() {
      bulkPool.close();
      // At shutdown no request of ours waits for these any more: cut what is left, never hang.
      await Promise.all([guarded.destroy(), mapped.destroy()]);
    },
  };
}

export type HttpClient = ReturnType<typeof createHttpClient>;

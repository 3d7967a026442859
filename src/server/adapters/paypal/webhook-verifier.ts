// Offline verification of PayPal webhook signatures (PayPal's preferred method):
// RSA-SHA256 over `transmissionId|transmissionTime|webhookId|crc32(raw body)` with CRC-32 as an
// unsigned decimal, using the certificate at `paypal-cert-url` (https on *.paypal.com only, cached).
// The download goes through the guarded client (paypal.com hosts, public addresses only) or, with
// a configured API base, through that base's operator client; no redirect is followed.
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { createHttpClient, HttpClientError, type HttpClient } from '../http/http-client.js';
import { createOperatorClient } from '../http/operator-client.js';
import { LRUCache } from 'lru-cache';
import { RateLimiter } from '../../lib/rate-limiter.js';

export interface WebhookHeaders {
  transmissionId?: string;
  transmissionTime?: string;
  transmissionSig?: string;
  certUrl?: string;
  authAlgo?: string;
}

export type VerifyResult = { ok: true } | { ok: false; reason: string };

export interface WebhookVerifierOptions {
  webhookId: string;
  /** The guarded client for paypal.com certificate URLs (ctx.adapters.http); one of its own if absent. */
  http?: HttpClient;
  /** Tests only (config refuses it in production): re-routes the certificate download to a fake. */
  hostMap?: Record<string, string>;
  /**
   * Configured PayPal API base (PAYPAL_API_BASE): when set, the certificate's path is fetched from
   * it, so a configured stand-in serves certificates too. The URL must still name paypal.com.
   */
  certBase?: string;
  /** A transmission older or newer than this is refused (replays of captured deliveries). */
  maxSkewMs?: number;
  now?: () => number;
}

const MAX_CERT_BYTES = 64 * 1024;
const CERT_TIMEOUT_MS = 10_000;
/** Certificates kept at once (PayPal uses one or two at a time; rotation changes the URL). */
const MAX_CACHED_CERTS = 8;
/** New certificate downloads per minute: a flood of forged deliveries cannot make us fetch more. */
const CERT_FETCHES_PER_MINUTE = 6;
/** PayPal's certificate path: /v1/notifications/certs/<name>, e.g. CERT-360caa42-fca2a594-2d7ab011. */
const CERT_PATH = /^\/v1\/notifications\/certs\/[A-Za-z0-9._-]{1,128}$/;

/** https on paypal.com or a subdomain, PayPal's certificate path, no credentials, query or fragment. */
export function isPayPalCertUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return (
      u.protocol === 'https:' &&
      !u.username &&
      !u.password &&
      !u.port &&
      !u.search &&
      !u.hash &&
      (u.hostname === 'paypal.com' || u.hostname.endsWith('.paypal.com')) &&
      CERT_PATH.test(u.pathname)
    );
  } catch {
    return false;
  }
}

export function signedString(
  h: Required<Pick<WebhookHeaders, 'transmissionId' | 'transmissionTime'>>,
  webhookId: string,
  raw: Buffer,
): string {
  return `${h.transmissionId}|${h.transmissionTime}|${webhookId}|${zlib.crc32(raw)}`;
}

export function createWebhookVerifier(opts: WebhookVerifierOptions) {
  const certs = new LRUCache<string, Promise<crypto.X509Certificate>>({ max: MAX_CACHED_CERTS });
  // Per process on purpose: it bounds what this node downloads, whatever the other nodes do.
  const fetches = new RateLimiter('webhookCertFetches', CERT_FETCHES_PER_MINUTE, 60_000);
  const maxSkew = opts.maxSkewMs ?? 60 * 60 * 1000;
  const now = opts.now ?? Date.now;

  const certBase = opts.certBase?.replace(/\/$/, '');
  // Built once: a configured base is operator configuration; a paypal.com URL is not, it is checked.
  const fromBase = certBase
    ? createOperatorClient({
        endpoint: certBase,
        timeoutMs: CERT_TIMEOUT_MS,
        maxBytes: MAX_CERT_BYTES,
        hostMap: opts.hostMap,
        maxRedirects: 0,
      })
    : null;
  const guarded = fromBase ? null : (opts.http ?? createHttpClient({ hostMap: opts.hostMap }));

  async function download(certUrl: string): Promise<crypto.X509Certificate> {
    const signal = AbortSignal.timeout(CERT_TIMEOUT_MS);
    let buf: Buffer;
    try {
      const res = guarded
        ? await guarded.request(certUrl, { allow: ['*.paypal.com'], maxRedirects: 0, signal })
        : await fromBase?.request(certBase + new URL(certUrl).pathname, { signal });
      if (!res) throw new Error('no certificate client'); // one of the two is always built above
      if (res.status < 200 || res.status >= 300) {
        await res.dump();
        throw new Error(`certificate download failed: ${res.status}`);
      }
      buf = await res.bytes(MAX_CERT_BYTES);
    } catch (err) {
      if (err instanceof HttpClientError && err.kind === 'too_large') throw new Error('certificate too large');
      throw err;
    }
    return new crypto.X509Certificate(buf);
  }

  /**
   * Cached by URL (PayPal rotates the URL with the certificate), the least recently used dropped
   * beyond MAX_CACHED_CERTS; a failed download is not cached; new downloads are rate-limited.
   */
  async function certificate(certUrl: string): Promise<crypto.X509Certificate> {
    let p = certs.get(certUrl);
    if (p) return p;
    if (await fetches.hit('cert')) throw new Error('too many certificate downloads');
    p = certs.get(certUrl) ?? download(certUrl); // another delivery may have started it meanwhile
    certs.set(certUrl, p);
    p.catch(() => certs.delete(certUrl));
    return p;
  }

  return {
    /** Certificates held in the cache (bounded). */
    cachedCertificates: () => certs.size,
    async verify(h: WebhookHeaders, raw: Buffer): Promise<VerifyResult> {
      if (!h.transmissionId || !h.transmissionTime || !h.transmissionSig || !h.certUrl)
        return { ok: false, reason: 'missing signature headers' };
      if (h.authAlgo && h.authAlgo !== 'SHA256withRSA')
        return { ok: false, reason: `unsupported algorithm ${h.authAlgo}` };
      if (!isPayPalCertUrl(h.certUrl))
        return {
          ok: false,
          reason: 'certificate URL is not a PayPal certificate URL (https://*.paypal.com/v1/notifications/certs/...)',
        };
      if (!/^[A-Za-z0-9+/]{64,2048}={0,2}$/.test(h.transmissionSig))
        return { ok: false, reason: 'malformed signature' };
      const sent = Date.parse(h.transmissionTime);
      if (!Number.isFinite(sent) || Math.abs(now() - sent) > maxSkew)
        return { ok: false, reason: 'stale or invalid transmission time' };
      let cert: crypto.X509Certificate;
      try {
        cert = await certificate(h.certUrl);
      } catch (err) {
        return { ok: false, reason: `certificate unavailable: ${err instanceof Error ? err.message : String(err)}` };
      }
      const t = now();
      if (Date.parse(cert.validFrom) > t || Date.parse(cert.validTo) < t)
        return { ok: false, reason: 'certificate expired or not yet valid' };
      const ok = crypto
        .createVerify('RSA-SHA256')
        .update(
          signedString({ transmissionId: h.transmissionId, transmissionTime: h.transmissionTime }, opts.webhookId, raw),
        )
        .verify(cert.publicKey, h.transmissionSig, 'base64');
      return ok ? { ok: true } : { ok: false, reason: 'signature mismatch' };
    },
  };
}
export type WebhookVerifier = ReturnType<typeof createWebhookVerifier>;

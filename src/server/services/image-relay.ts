// Images that people put into the product (a trending entry's thumbnail, a blog post's image) are
// shown through it: the page gets a signed link to /api/images, the server fetches the picture
// through the guarded HTTP client, so a visitor's browser talks only to this site (decision 0906).
// Only links the server signed are relayed, so it is no open proxy.
import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { fail } from '../errors.js';
import type { HttpClient } from '../adapters/http/index.js';
import { imageRelayUrl } from '../../shared/api-paths.js';

const MAX_BYTES = 5 * 1024 * 1024;
const CACHE_BYTES = 32 * 1024 * 1024;
const CACHE_TTL_MS = 10 * 60_000;
const TIMEOUT_MS = 15_000;

export interface RelayedImage {
  body: Buffer;
  contentType: string;
}

/** The picture's real type from its first bytes; SVG (a document that can carry scripts) is refused. */
export function sniffImageType(b: Buffer): string | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (
    b.length >= 12 &&
    b.subarray(0, 4).toString('latin1') === 'RIFF' &&
    b.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  if (b.length >= 12 && /^ftyp(avif|avis)$/.test(b.subarray(4, 12).toString('latin1'))) return 'image/avif';
  return null;
}

/** The relay's signature of a picture's URL (pure, so a text worker thread signs a post's images too). */
export function relaySigner(secret: string): (url: string) => string {
  const key = crypto.createHmac('sha256', secret).update('image-relay-v1').digest();
  return (url) => crypto.createHmac('sha256', key).update(url).digest('base64url').slice(0, 32);
}

/**
 * A picture written by a user (a blog post's image) as a relay link; null for anything but an
 * absolute http(s) URL, so a post can never point a reader's browser at this site's own routes
 * (`![ ](/api/video/download?...)` spent readers' downloads; issue 34).
 */
export function relayOnly(sign: (url: string) => string): (url: string) => string | null {
  return (url) => (/^https?:\/\/[^/\\]/i.test(url) && URL.canParse(url) ? imageRelayUrl(url, sign(url)) : null);
}

export function createImageRelay(deps: { secret: string; http: HttpClient }) {
  const sign = relaySigner(deps.secret);
  const relayed = relayOnly(sign);
  const cache = new LRUCache<string, RelayedImage>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (v) => v.body.length || 1,
    ttl: CACHE_TTL_MS,
  });
  const inFlight = new Map<string, Promise<RelayedImage>>();

  async function fetchImage(url: string): Promise<RelayedImage> {
    // A link signed before its form was checked (or an address URL cannot read) is no picture.
    const host = URL.canParse(url) ? new URL(url).hostname : null;
    if (!host) throw fail('not_found');
    const res = await deps.http.request(url, {
      allow: [host],
      allowHttp: true,
      maxRedirects: 3,
      headers: { accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (res.status !== 200) {
      await res.dump();
      throw fail('not_found');
    }
    // A page, an SVG or any document is refused by its type before a byte is read (issue 42); what
    // is read must then be a raster picture by its first bytes, whatever it was called.
    const declared = res.mediaType('image/jpeg');
    const body = await res.bytes(MAX_BYTES);
    const contentType = sniffImageType(body);
    if (!contentType)
      throw declared.startsWith('image/')
        ? fail('upstream.not_media', { variant: 'unnamed' })
        : fail('upstream.not_media', { type: declared });
    return { body, contentType };
  }

  return {
    /**
     * What a page may put in `src`: this product's own paths as they are, an http(s) URL as a
     * relay link, anything else null.
     */
    link(url: string | null | undefined): string | null {
      if (!url) return null;
      if (url.startsWith('/') && !url.startsWith('//')) return url;
      return relayed(url);
    },
    /** A user's picture: the relay link, never one of this product's own paths (relayOnly). */
    relayed,

    /** The picture behind a link this server signed; 404 for a forged link, `upstream.not_media` for anything not a picture. */
    async open(url: string, signature: string): Promise<RelayedImage> {
      const expected = Buffer.from(sign(url));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) throw fail('not_found');
      const cached = cache.get(url);
      if (cached) return cached;
      // Viewers of one page at once share one fetch.
      let pending = inFlight.get(url);
      if (!pending) {
        pending = fetchImage(url).finally(() => inFlight.delete(url));
        inFlight.set(url, pending);
      }
      const image = await pending;
      cache.set(url, image);
      return image;
    },
  };
}
export type ImageRelay = ReturnType<typeof createImageRelay>;

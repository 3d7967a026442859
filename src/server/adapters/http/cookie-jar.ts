// The cookie jar that carries a site's session cookies (e.g. a CDN token cookie with
// Domain=.video.example) from a page fetch to the media requests that need them. RFC 6265 rules,
// public-suffix checks (no cookie for `.com` or `.co.uk`) and expiry come from tough-cookie;
// this class only fixes the small synchronous interface the HTTP client and the platforms use.
// Serialisable (toJSON / CookieJar.from) so a cache can keep it next to the data it unlocks.
import { Cookie, CookieJar as ToughJar, type SerializedCookieJar } from 'tough-cookie';

export type StoredCookies = SerializedCookieJar;

export class CookieJar {
  private jar = new ToughJar(undefined, { looseMode: true });
  constructor(private readonly now: () => number = Date.now) {}

  static from(saved: StoredCookies | undefined): CookieJar {
    const jar = new CookieJar();
    if (saved) jar.jar = ToughJar.deserializeSync(saved);
    return jar;
  }

  toJSON(): StoredCookies {
    const saved = this.jar.serializeSync();
    if (!saved) throw new Error('cookie store is not synchronous'); // tough-cookie's MemoryCookieStore is
    return saved;
  }

  clone(): CookieJar {
    return CookieJar.from(this.toJSON());
  }

  /** Stores the `Set-Cookie` header values a response from `url` carried. */
  setFromResponse(url: string | URL, setCookie: string | string[] | undefined): void {
    if (!setCookie) return;
    for (const header of Array.isArray(setCookie) ? setCookie : [setCookie]) this.set(url, header);
  }

  /** Sets a cookie (e.g. one computed by a challenge solver); one a site may not set is ignored. */
  set(url: string | URL, header: string): void {
    this.jar.setCookieSync(header, String(url), { ignoreError: true, now: new Date(this.now()) });
  }

  /** A cookie's value by name, whatever its domain (unexpired only). */
  get(name: string): string | undefined {
    const t = this.now();
    return this.toJSON()
      .cookies.map((c) => Cookie.fromJSON(c))
      .find((c) => c?.key === name && expiresAt(c) > t)?.value;
  }

  /** The `Cookie` header value for a request to `url`, or undefined when none apply. */
  headerFor(url: string | URL): string | undefined {
    const t = this.now();
    const cookies = this.jar.getCookiesSync(String(url), { expire: false }).filter((c) => expiresAt(c) > t);
    return cookies.length ? cookies.map((c) => c.cookieString()).join('; ') : undefined;
  }
}

/**
 * When a cookie expires on this jar's clock: Max-Age counts from its creation (RFC 6265 5.3),
 * else Expires, else never (a session cookie). tough-cookie's own reads use the wall clock.
 */
function expiresAt(c: Cookie): number {
  if (typeof c.maxAge === 'number')
    return c.maxAge <= 0 ? -Infinity : (c.creation instanceof Date ? c.creation.getTime() : 0) + c.maxAge * 1000;
  return c.expires instanceof Date ? c.expires.getTime() : Infinity;
}

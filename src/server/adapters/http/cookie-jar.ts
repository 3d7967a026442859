// A small RFC 6265 cookie jar: enough to carry a site's session cookies (e.g. TikTok's
// `tt_chain_token`, Domain=.tiktok.com) from a page fetch to the media requests that need them.
// Serialisable (toJSON / CookieJar.from) so a cache can keep it next to the data it unlocks.
import { normaliseHost } from './address-policy.js';

export interface StoredCookie {
  name: string;
  value: string;
  domain: string; // without leading dot
  hostOnly: boolean;
  path: string;
  secure: boolean;
  expiresAt: number | null; // epoch ms; null = session cookie
}

function domainMatches(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

function defaultPath(pathname: string): string {
  if (!pathname.startsWith('/') || pathname.lastIndexOf('/') === 0) return '/';
  return pathname.slice(0, pathname.lastIndexOf('/'));
}

function pathMatches(reqPath: string, cookiePath: string): boolean {
  if (reqPath === cookiePath) return true;
  if (!reqPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || reqPath[cookiePath.length] === '/';
}

export class CookieJar {
  private cookies: StoredCookie[] = [];
  constructor(private readonly now: () => number = Date.now) {}

  static from(saved: StoredCookie[] | undefined): CookieJar {
    const jar = new CookieJar();
    jar.cookies = (saved ?? []).map((c) => ({ ...c }));
    return jar;
  }

  toJSON(): StoredCookie[] {
    this.evictExpired();
    return this.cookies.map((c) => ({ ...c }));
  }

  clone(): CookieJar {
    return CookieJar.from(this.toJSON());
  }

  /** Stores the `Set-Cookie` header values a response from `url` carried. */
  setFromResponse(url: string | URL, setCookie: string | string[] | undefined): void {
    if (!setCookie) return;
    const u = new URL(url);
    for (const header of Array.isArray(setCookie) ? setCookie : [setCookie]) this.setOne(u, header);
  }

  /** Sets a cookie directly (e.g. one computed by a challenge solver). */
  set(url: string | URL, header: string): void {
    this.setOne(new URL(url), header);
  }

  get(name: string): string | undefined {
    this.evictExpired();
    return this.cookies.find((c) => c.name === name)?.value;
  }

  /** The `Cookie` header value for a request to `url`, or undefined when none apply. */
  headerFor(url: string | URL): string | undefined {
    this.evictExpired();
    const u = new URL(url);
    const host = normaliseHost(u.hostname);
    const matching = this.cookies
      .filter((c) => (c.hostOnly ? host === c.domain : domainMatches(host, c.domain)))
      .filter((c) => pathMatches(u.pathname || '/', c.path))
      .filter((c) => !c.secure || u.protocol === 'https:')
      .sort((a, b) => b.path.length - a.path.length);
    return matching.length ? matching.map((c) => `${c.name}=${c.value}`).join('; ') : undefined;
  }

  private setOne(u: URL, header: string): void {
    const [pair, ...attrs] = header.split(';');
    const eq = pair.indexOf('=');
    if (eq <= 0) return;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const host = normaliseHost(u.hostname);
    const cookie: StoredCookie = { name, value, domain: host, hostOnly: true, path: defaultPath(u.pathname), secure: false, expiresAt: null };
    for (const attr of attrs) {
      const i = attr.indexOf('=');
      const key = (i < 0 ? attr : attr.slice(0, i)).trim().toLowerCase();
      const val = i < 0 ? '' : attr.slice(i + 1).trim();
      if (key === 'domain' && val) {
        const domain = val.replace(/^\./, '').toLowerCase();
        // A response may only set cookies for its own domain, and never for a bare TLD.
        if (!domainMatches(host, domain) || !domain.includes('.')) return;
        cookie.domain = domain;
        cookie.hostOnly = false;
      } else if (key === 'path' && val.startsWith('/')) cookie.path = val;
      else if (key === 'secure') cookie.secure = true;
      else if (key === 'max-age' && /^-?\d+$/.test(val)) cookie.expiresAt = this.now() + Number(val) * 1000;
      else if (key === 'expires' && cookie.expiresAt === null) {
        const t = Date.parse(val);
        if (!Number.isNaN(t)) cookie.expiresAt = t;
      }
    }
    this.cookies = this.cookies.filter((c) => !(c.name === name && c.domain === cookie.domain && c.path === cookie.path));
    if (cookie.expiresAt === null || cookie.expiresAt > this.now()) this.cookies.push(cookie);
  }

  private evictExpired(): void {
    const t = this.now();
    this.cookies = this.cookies.filter((c) => c.expiresAt === null || c.expiresAt > t);
  }
}

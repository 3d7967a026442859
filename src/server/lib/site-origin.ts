// Which requests come to this site: the Origin check and the test checkout ask here (issue 31).
// Only PUBLIC_URL counts, never the request's own Host header (anyone can send any Host). A
// loopback PUBLIC_URL also answers to its loopback aliases (localhost, 127.0.0.1, [::1]) on the
// same port: they are one machine, and only that machine can send them.
import { isLoopbackHost } from '../config.js';

const LOOPBACK_ALIASES = ['localhost', '127.0.0.1', '[::1]'];

export interface SiteOrigin {
  /** An Origin header this site's own pages send. */
  isOwnOrigin(origin: string | undefined): boolean;
  /** A Host header naming PUBLIC_URL's host (and port). */
  isOwnHost(host: string | undefined): boolean;
}

export function siteOrigin(publicUrl: string): SiteOrigin {
  const url = new URL(publicUrl);
  const port = url.port ? `:${url.port}` : '';
  const hosts = new Set([url.host.toLowerCase()]);
  if (isLoopbackHost(url.hostname)) for (const alias of LOOPBACK_ALIASES) hosts.add(`${alias}${port}`);
  const origins = new Set([...hosts].map((h) => `${url.protocol}//${h}`));
  return {
    isOwnOrigin: (origin) => !!origin && origins.has(origin.toLowerCase()),
    isOwnHost: (host) => !!host && hosts.has(host.toLowerCase()),
  };
}

/** A peer address on this machine's loopback interface (IPv4, IPv6, or IPv4-mapped IPv6). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.replace(/^::ffff:/i, '');
  return a === '::1' || /^127(\.\d{1,3}){3}$/.test(a);
}

// Which hosts and addresses an outbound request may reach. Pure functions, no I/O.
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * A host allow-list entry: `www.video.example` (exactly that host) or `*.video.example` (any subdomain,
 * at any depth, and the bare domain itself).
 */
export type HostPattern = string;

/** Lower-cased hostname without a trailing dot and without IPv6 brackets. */
export function normaliseHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

export function hostMatches(host: string, pattern: HostPattern): boolean {
  const h = normaliseHost(host);
  const p = pattern.toLowerCase();
  if (p.startsWith('*.')) {
    const domain = p.slice(2);
    return h === domain || h.endsWith(`.${domain}`);
  }
  return h === p;
}

export function hostAllowed(host: string, allow: readonly HostPattern[]): boolean {
  return allow.some((p) => hostMatches(host, p));
}

/**
 * Where a connection to an IPv6 address really goes. IPv4 carried inside it counts as that IPv4
 * address: mapped (::ffff:a.b.c.d), translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d,
 * deprecated), NAT64 (64:ff9b::/96) and 6to4 (2002:aabb:ccdd::/48), since a tunnel or translator
 * delivers there. null: a destination we cannot see (Teredo, local-use NAT64, the rest of ::/8).
 */
function destination(a: ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const p = a.parts;
  const last32 = () => new ipaddr.IPv4([p[6] >> 8, p[6] & 255, p[7] >> 8, p[7] & 255]);
  const range = a.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return last32();
  if (p.slice(0, 6).every((x) => x === 0)) return last32(); // IPv4-compatible, :: and ::1 included
  if (range === 'rfc6052') return p[2] === 0 ? last32() : null; // 64:ff9b:1::/48 is local use
  if (p[0] < 0x100) return null; // the rest of ::/8 is reserved
  if (range === '6to4') return new ipaddr.IPv4([p[1] >> 8, p[1] & 255, p[2] >> 8, p[2] & 255]);
  if (range === 'teredo') return null;
  return a;
}

/**
 * True for anything but a globally routable unicast address: loopback, private, carrier-grade NAT,
 * link-local, multicast, documentation, reserved, and IPv6 forms leading to one of them or to an
 * address we cannot see (destination above). Classified by ipaddr.js from IANA's special-purpose
 * registries; only its `unicast` range passes.
 */
export function isPrivateAddress(address: string): boolean {
  const a = normaliseHost(address).replace(/%.*$/, '');
  // net.isIP first: ipaddr.js also reads shorthand IPv4 forms (0x7f.1) that are no address here.
  if (!net.isIP(a)) return true; // not an address at all: refuse
  const parsed = ipaddr.parse(a);
  const target = parsed.kind() === 'ipv4' ? parsed : destination(parsed as ipaddr.IPv6);
  return target === null || target.range() !== 'unicast';
}

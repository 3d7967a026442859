// Which hosts and addresses an outbound request may reach. Pure functions, no I/O.
import net from 'node:net';

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

const v4Blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved + broadcast
] as const) {
  v4Blocked.addSubnet(prefix, bits, 'ipv4');
}
const v6Blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // old site-local
  ['ff00::', 8], // multicast
] as const) {
  v6Blocked.addSubnet(prefix, bits, 'ipv6');
}

/** IPv4 hidden inside an IPv6 address (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::, 6to4 2002::). */
function embeddedV4(addr: string): string | null {
  const lower = addr.toLowerCase();
  const dotted = lower.match(/^(?:::ffff:(?:0:)?|64:ff9b::|::)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) return dotted[1];
  const hex = lower.match(/^(?:::ffff:(?:0:)?|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  if (hex) {
    const hi = parseInt(hex[1], 16);
    const lo = parseInt(hex[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  const sixToFour = lower.match(/^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/);
  if (sixToFour) {
    const hi = parseInt(sixToFour[1], 16);
    const lo = parseInt(sixToFour[2], 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** True for loopback, private, link-local, multicast, reserved and other non-public addresses. */
export function isPrivateAddress(address: string): boolean {
  const a = normaliseHost(address).replace(/%.*$/, '');
  const family = net.isIP(a);
  if (family === 4) return v4Blocked.check(a, 'ipv4');
  if (family === 6) {
    const v4 = embeddedV4(a);
    if (v4) return v4Blocked.check(v4, 'ipv4');
    return v6Blocked.check(a, 'ipv6');
  }
  return true; // not an address at all: refuse
}

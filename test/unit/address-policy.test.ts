// Which addresses the guarded client may connect to (issue 42): every form an address can take,
// IPv4 hidden in IPv6 (mapped, translated, compatible, NAT64, 6to4) and tunnels (Teredo) included.
// The IPv4-compatible and hex-mapped forms passed before ipaddr.js classified them.
import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../src/server/adapters/http/index.js';

const REFUSED: Array<[string, string]> = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.0.1', 'private'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['0.0.0.0', 'this network'],
  ['0.1.2.3', 'this network'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['192.0.2.1', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback, long form'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local with a zone'],
  ['[fe80::1]', 'bracketed'],
  ['fc00::1', 'unique local'],
  ['fd12:3456::1', 'unique local'],
  ['fec0::1', 'old site-local'],
  ['ff02::1', 'multicast'],
  ['100::1', 'discard'],
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation (2024)'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
  ['0:0:0:0:0:ffff:a00:1', 'IPv4-mapped 10.0.0.1, long form'],
  ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata'],
  ['::ffff:0:7f00:1', 'IPv4-translated loopback'],
  ['::7f00:1', 'IPv4-compatible loopback'],
  ['::a9fe:a9fe', 'IPv4-compatible metadata'],
  ['::127.0.0.1', 'IPv4-compatible loopback, dotted'],
  ['::10.0.0.1', 'IPv4-compatible private'],
  ['::1:0:0:808:808', 'elsewhere in ::/8'],
  ['64:ff9b::7f00:1', 'NAT64 loopback'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 metadata'],
  ['64:ff9b::192.168.0.1', 'NAT64 private, dotted'],
  ['64:ff9b:1::808:808', 'local-use NAT64'],
  ['2002:7f00:1::1', '6to4 of loopback'],
  ['2002:a9fe:a9fe::', '6to4 of metadata'],
  ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ['2001:10::1', 'ORCHID'],
  ['not-an-ip', 'a name'],
  ['0x7f000001', 'a shorthand IPv4 form'],
  ['127.1', 'a shorthand IPv4 form'],
  ['', 'empty'],
];

const ALLOWED: Array<[string, string]> = [
  ['93.184.216.34', 'public IPv4'],
  ['8.8.8.8', 'public IPv4'],
  ['2606:4700::1111', 'public IPv6'],
  ['2a00:1450:4001:80b::200e', 'public IPv6'],
  ['::ffff:8.8.8.8', 'IPv4-mapped public'],
  ['64:ff9b::808:808', 'NAT64 of a public address'],
  ['2002:808:808::1', '6to4 of a public address'],
];

describe('address policy: only globally routable unicast addresses', () => {
  it.each(REFUSED)('refuses %s (%s)', (address) => expect(isPrivateAddress(address)).toBe(true));
  it.each(ALLOWED)('allows %s (%s)', (address) => expect(isPrivateAddress(address)).toBe(false));
});

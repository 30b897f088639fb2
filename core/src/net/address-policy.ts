/**
 * Which network addresses a plugin may reach without an explicit grant of that address: public unicast only.
 * A hostname grant ("musicbrainz.org") must not become a way into the host's own network, whatever the name
 * resolves to, so the check is made on every address the name resolves to, at connect time.
 */
import { BlockList, isIP } from 'node:net';

const REFUSED = new BlockList();
// IPv4: "this network" (0.0.0.0 included), private, loopback, link-local (cloud metadata 169.254.169.254 is
// inside it), carrier-grade NAT, IETF protocol assignments, benchmarking, multicast and reserved/broadcast.
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  REFUSED.addSubnet(net, prefix, 'ipv4');
}
// IPv6: unspecified, loopback, unique-local, link-local, site-local (deprecated), multicast, and the ranges
// that embed an IPv4 address (NAT64, 6to4) whose embedded address is not checked here.
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
] as const) {
  REFUSED.addSubnet(net, prefix, 'ipv6');
}

/**
 * The IPv4 address an IPv6 address stands for (`::ffff:127.0.0.1`, `::ffff:7f00:1`, `::127.0.0.1`), or null:
 * such addresses reach the IPv4 host, so they are judged as IPv4.
 */
function embeddedIpv4(address: string): string | null {
  const m = /^::(?:ffff(?::0{1,4})?:)?(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return null;
  if (m[1]) return m[1];
  const hi = Number.parseInt(m[2]!, 16);
  const lo = Number.parseInt(m[3]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True when `address` (an IP literal, IPv6 with or without brackets) is not a public unicast address. */
export function isRefusedAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 4) return REFUSED.check(bare, 'ipv4');
  if (family !== 6) return true; // not an address at all: never connect to it
  const v4 = embeddedIpv4(bare.toLowerCase());
  if (v4 !== null) return REFUSED.check(v4, 'ipv4') || v4 === '0.0.0.0';
  return REFUSED.check(bare, 'ipv6');
}

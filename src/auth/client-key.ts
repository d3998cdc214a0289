import ipaddr from 'ipaddr.js';

/**
 * The key a client address counts under for sign-in limits: an IPv4 address itself (an
 * IPv4-mapped IPv6 one too), an IPv6 address's /64, the smallest block a host is given, so that
 * one network cannot take 2^64 allowances by changing its interface identifier.
 */
export function clientKey(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return address;
  let ip = ipaddr.parse(bare);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toNormalizedString().split(':').slice(0, 4).join(':')}::/64`;
}

import { lookup as dnsLookup } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * The addresses a webhook may reach unless WEBHOOK_ALLOW_PRIVATE: globally reachable unicast only.
 * ipaddr.js keeps the IANA special-purpose registries of both families (loopback, private,
 * link-local with cloud metadata, carrier-grade NAT, documentation, benchmarking, multicast,
 * reserved...): anything in one of them is refused. IPv6 must also lie in 2000::/3, the global
 * unicast space, which leaves out the IPv4-compatible (::a.b.c.d), SIIT (::ffff:0:a.b.c.d) and
 * discard (100::/64) forms; 6to4, Teredo and NAT64 embed an IPv4 address and are refused as
 * ranges. An IPv4-mapped address (::ffff:a.b.c.d) is checked as its IPv4 address.
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Whether `address` (an IP) is one a webhook may not reach. */
export function isBlockedAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.range() !== 'unicast';
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() !== 'unicast';
  return v6.range() !== 'unicast' || !v6.match(GLOBAL_UNICAST_V6);
}

/**
 * What a refused host is told, whether its name did not resolve or resolved to an address that is
 * not public: the same sentence, naming no address, so that the check is no way to learn what a
 * name resolves to on this network.
 */
export const ADDRESS_PROBLEM =
  'must name a host whose addresses are all public (not loopback, private, link-local, documentation or otherwise reserved)';

export class BlockedAddressError extends Error {
  readonly code = 'WEBHOOK_ADDRESS_BLOCKED';
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | Array<{ address: string; family: number }>,
  family?: number,
) => void;

/**
 * A `lookup` for http.request that resolves the host and refuses blocked addresses: the address
 * checked is the address connected to, so a name that resolves differently a moment later (DNS
 * rebinding) gains nothing.
 */
export function safeLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const bad = addresses.find((a) => isBlockedAddress(a.address));
      if (bad && !allowPrivate) return callback(new BlockedAddressError(`${hostname}: not a public address`), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * The reason `url` may not be a webhook's, or null: http(s) only, no credentials in it, and (unless
 * allowed) a host that resolves to public addresses only.
 */
export async function urlProblem(url: string, allowPrivate: boolean): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http(s) URL';
  if (parsed.username || parsed.password) return 'must not hold credentials';
  if (allowPrivate) return null;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host)
    ? [host]
    : await new Promise<string[]>((resolve) =>
        dnsLookup(host, { all: true }, (err, found) => resolve(err ? [] : found.map((a) => a.address))),
      );
  return !addresses.length || addresses.some(isBlockedAddress) ? ADDRESS_PROBLEM : null;
}

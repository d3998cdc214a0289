import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not reach unless WEBHOOK_ALLOW_PRIVATE: this host, private networks,
 * link-local (cloud metadata at 169.254.169.254 included), carrier-grade NAT, multicast and the
 * unspecified/reserved ranges, in IPv4 and IPv6 (IPv4-mapped IPv6 addresses are checked as IPv4).
 */
const BLOCKED = new BlockList();
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
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** Whether `address` (an IP) is one a webhook may not reach. */
export function isBlockedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

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
      if (bad && !allowPrivate)
        return callback(new BlockedAddressError(`${hostname} resolves to ${bad.address}, a private address`), []);
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
  const addresses = isIP(host)
    ? [host]
    : await new Promise<string[]>((resolve) =>
        dnsLookup(host, { all: true }, (err, found) => resolve(err ? [] : found.map((a) => a.address))),
      );
  if (!addresses.length) return `host ${host} does not resolve`;
  const bad = addresses.find(isBlockedAddress);
  return bad ? `resolves to ${bad}, a loopback, private, link-local or reserved address` : null;
}

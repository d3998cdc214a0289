import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/**
 * Who may read /metrics (docs/api/decisions.md §24): a bearer equal to METRICS_TOKEN, or, without a bearer, a
 * scraper connected from loopback itself. A request a proxy forwarded (X-Forwarded-For or
 * Forwarded) comes from whoever the proxy serves, not from loopback: it needs the token.
 */
export function mayReadMetrics(remoteAddress: string | undefined, headers: IncomingHttpHeaders, token: string | null): boolean {
  const auth = headers.authorization;
  if (auth !== undefined) {
    const m = /^Bearer ([\x21-\x7e]+)$/i.exec(auth);
    return token !== null && m !== null && sameSecret(m[1], token);
  }
  return (
    remoteAddress !== undefined &&
    LOOPBACK.test(remoteAddress) &&
    headers['x-forwarded-for'] === undefined &&
    headers.forwarded === undefined
  );
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

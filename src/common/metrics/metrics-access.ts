import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/** Headers some proxy sets on what it forwards: a request with any of them is not the loopback scraper's. */
const PROXY_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-real-ip',
  'x-client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  'x-cluster-client-ip',
  'via',
];

/**
 * Why a request may not read /metrics (docs/api/decisions.md §24), or null when it may: a bearer
 * equal to METRICS_TOKEN, or, without a bearer, a scraper connected from loopback itself with no
 * proxy header of any kind (a request a proxy forwarded comes from whoever the proxy serves). A
 * proxy that adds no header cannot be told apart: behind one, set METRICS_TOKEN (docs/operations.md).
 */
export function metricsRefusal(
  remoteAddress: string | undefined,
  headers: IncomingHttpHeaders,
  token: string | null,
): string | null {
  const auth = headers.authorization;
  if (auth !== undefined) {
    const m = /^Bearer ([\x21-\x7e]+)$/i.exec(auth);
    if (token === null)
      return 'This bearer token is not for /metrics (METRICS_TOKEN is not set): scrape from this machine without one';
    return m !== null && sameSecret(m[1], token) ? null : 'The bearer token is not METRICS_TOKEN';
  }
  if (remoteAddress === undefined || !LOOPBACK.test(remoteAddress))
    return token === null
      ? 'Metrics are served to loopback only: set METRICS_TOKEN to scrape from elsewhere'
      : 'Send METRICS_TOKEN as a bearer token';
  const proxied = PROXY_HEADERS.find((h) => headers[h] !== undefined);
  if (proxied)
    return `This request came through a proxy (${proxied}): send METRICS_TOKEN as a bearer token${token === null ? ' (set it first)' : ''}`;
  return null;
}

export function mayReadMetrics(remoteAddress: string | undefined, headers: IncomingHttpHeaders, token: string | null): boolean {
  return metricsRefusal(remoteAddress, headers, token) === null;
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

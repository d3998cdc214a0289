import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Route config flag of the documentation's routes (the Swagger UI page, its assets, the document). */
export const DOCUMENTATION_ROUTE = 'documentationRoute';

export interface SecurityHeaderSets {
  /** Every response of the JSON API, errors and unmatched paths included. */
  api: Readonly<Record<string, string>>;
  /** The documentation's routes: an HTML page with scripts and styles. */
  documentation: Readonly<Record<string, string>>;
}

/**
 * The response headers, computed once at boot (they do not depend on the request).
 *
 * The API answers JSON (and files): OWASP's REST Security Cheat Sheet asks of it `Cache-Control:
 * no-store` (no proxy or browser keeps a personal record), `X-Content-Type-Options: nosniff`, a
 * CSP that allows nothing (`default-src 'none'`: a response opened in a browser runs no script,
 * loads nothing) and `frame-ancestors 'none'` (nothing frames it), and HSTS behind HTTPS. The
 * headers only an HTML page reads (Helmet's X-Frame-Options, Referrer-Policy, the cross-origin
 * policies, X-DNS-Prefetch-Control...) were 600 of the 970 header bytes of every JSON answer.
 *
 * The documentation page keeps Helmet's set with a CSP that lets Swagger UI run its own scripts
 * and styles, `upgrade-insecure-requests` only behind HTTPS (PUBLIC_URL https://...): over plain
 * HTTP on any host but loopback a browser would upgrade /docs' scripts to an https:// nobody
 * serves, a blank page.
 */
export function securityHeaders(config: { publicUrl: string }): SecurityHeaderSets {
  const https = config.publicUrl.startsWith('https://');
  const api: Record<string, string> = {
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    'X-Content-Type-Options': 'nosniff',
  };
  const documentation: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number) => (documentation[name] = String(value)),
    removeHeader: (name: string) => delete documentation[name],
  };
  helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'validator.swagger.io'],
        scriptSrc: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  })({} as IncomingMessage, res as unknown as ServerResponse, () => undefined);
  // The same HSTS as the documentation's, behind HTTPS only.
  if (https) api['Strict-Transport-Security'] = documentation['Strict-Transport-Security'];
  return { api, documentation };
}

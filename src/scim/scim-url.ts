/** SCIM endpoint names as the service routes them; providers and test collections vary the case. */
const SEGMENTS = new Map(
  ['Users', 'Groups', 'Schemas', 'ResourceTypes', 'ServiceProviderConfig', 'serviceConfiguration'].map((s) => [
    s.toLowerCase(),
    s,
  ]),
);

/**
 * The URL a SCIM request is routed by: the endpoint's name in its case (/scim/v2/users → /Users)
 * and no trailing slash (/Users/?filter=...), as RFC 7644 clients send them. Other URLs unchanged.
 * Fastify's rewriteUrl runs it on every request, so the root is built once per installation.
 */
export function scimUrlRouter(apiPrefix: string): (url: string) => string {
  const root = scimRoot(apiPrefix);
  return (url) => (url.startsWith(root) ? routed(url, root) : url);
}

/** The SCIM service's root path, with its trailing slash. */
export function scimRoot(apiPrefix: string): string {
  return `${apiPrefix}/scim/v2/`;
}

function routed(url: string, root: string): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q);
  const rest = path.slice(root.length).replace(/\/+$/, '');
  const [first, ...more] = rest.split('/');
  const segment = SEGMENTS.get(first.toLowerCase()) ?? first;
  return `${root}${[segment, ...more].join('/')}${query}`;
}

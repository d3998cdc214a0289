/**
 * The HR service's typed client: `paths` and `components` come from the service's OpenAPI
 * document (src/schema.d.ts, made by `npm run client` at the repository root), the calls go
 * through openapi-fetch. Paths are relative to the server entry: pass the installation's
 * `{base_url}` (its address + BASE_PATH + /app/api) as baseUrl.
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';

export type { components, paths };
export type Schemas = components['schemas'];

export interface HrClientOptions {
  /** The installation's base URL, e.g. https://hr.example.com/app/api */
  baseUrl: string;
  /** The access token; a function is called for each request (a token refreshed meanwhile is used). */
  token?: string | (() => string | undefined);
  fetch?: typeof fetch;
}

/**
 * Typed for JSON answers: the lists that also answer CSV or XLSX (`format=csv|xlsx`) are files for a
 * browser link or a plain fetch, not for this client.
 */
export type HrClient = Client<paths, 'application/json'>;

type QueryValue = string | number | boolean | null | undefined;

/**
 * The query string as the document describes it: a list's `filters` object in the deepObject style,
 * each value of a list of values repeated (`filters[status]=Active&filters[status]=Terminated`),
 * which openapi-fetch's own serializer refuses ("deeply-nested arrays"); other parameters as
 * `name=value`, repeated for arrays.
 */
export function serializeQuery(query: Record<string, unknown> | undefined): string {
  const parts: string[] = [];
  const add = (name: string, value: QueryValue) => {
    if (value !== undefined && value !== null) parts.push(`${name}=${encodeURIComponent(String(value))}`);
  };
  const each = (value: unknown, fn: (v: QueryValue) => void) =>
    (Array.isArray(value) ? value : [value]).forEach((v) => fn(v as QueryValue));
  for (const [name, value] of Object.entries(query ?? {})) {
    const key = encodeURIComponent(name);
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      for (const [field, v] of Object.entries(value)) each(v, (one) => add(`${key}[${encodeURIComponent(field)}]`, one));
    else each(value, (one) => add(key, one));
  }
  return parts.join('&');
}

/** A client whose requests carry `Authorization: Bearer <token>` when a token is given. */
export function createHrClient(options: HrClientOptions): HrClient {
  const client = createClient<paths, 'application/json'>({
    baseUrl: options.baseUrl,
    fetch: options.fetch,
    querySerializer: serializeQuery,
  });
  const bearer: Middleware = {
    onRequest({ request }) {
      const token = typeof options.token === 'function' ? options.token() : options.token;
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
  client.use(bearer);
  return client;
}

/** A custom field's definition (GET /custom-fields): its key, type, options, who sees and edits it. */
export type CustomFieldDefinition = Schemas['CustomFieldDto'];

/**
 * Every custom field definition the caller reads, in form order (position, then id), read page by
 * page from GET /custom-fields: what a form builds its inputs from at run time (a select's
 * options, a required field, the fields an employee edits itself). The values travel as
 * `custom_fields` on the employees' routes.
 */
export async function customFieldDefinitions(client: HrClient): Promise<CustomFieldDefinition[]> {
  const out: CustomFieldDefinition[] = [];
  for (let page = 1; ; page++) {
    const { data, error } = await client.GET('/custom-fields', { params: { query: { page, limit: 500 } } });
    if (!data) throw new Error(`GET /custom-fields: ${JSON.stringify(error)}`);
    out.push(...data.data);
    if (!data.nextPage) return out;
  }
}

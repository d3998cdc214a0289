import { Filter, FilterBudget, matches, parseFilter, pinnedSubValue, pinnedValue } from './scim-filter';
import { Json } from './scim-schema';
import { GROUP_SCHEMA, LIST_SCHEMA, USER_SCHEMA } from './scim-schema';
import { ScimError } from './scim.error';

export interface ScimQuery {
  filter?: string;
  attributes?: string;
  excludedAttributes?: string;
  startIndex?: string;
  count?: string;
}

export const MAX_COUNT = 1000;
const DEFAULT_COUNT = 100;

export interface ParsedQuery {
  filter: Filter | null;
  startIndex: number;
  count: number;
  project: (resource: Json) => Json;
}

function positive(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  if (!/^-?\d{1,9}$/.test(value)) throw new ScimError('invalidValue', `${name} must be an integer`);
  return Number(value);
}

const CORE_URNS = new Set([USER_SCHEMA.toLowerCase(), GROUP_SCHEMA.toLowerCase()]);

/**
 * Top-level names of an attributes list; "emails[type eq \"work\"]" and "name.givenName" name emails
 * and name. A core schema's URN prefix names the attribute after it
 * (urn:ietf:params:scim:schemas:core:2.0:User:userName is userName, RFC 7644 §3.10); an
 * extension's names the extension's object.
 */
function names(list: string): Set<string> {
  return new Set(
    list
      .split(',')
      .map((a) => a.trim().replace(/\[.*$/, ''))
      .filter(Boolean)
      .map((a) => {
        const urn = /^(urn:.*):([^:]+)$/i.exec(a);
        if (!urn) return a.split('.')[0].toLowerCase();
        return CORE_URNS.has(urn[1].toLowerCase()) ? urn[2].split('.')[0].toLowerCase() : urn[1].toLowerCase();
      }),
  );
}

/**
 * filter, startIndex (1-based; below 1 is 1), count (0..1000), attributes / excludedAttributes (RFC
 * 7644 §3.4.2). `always`: the resource type's attributes returned whatever those say (their schema's
 * `returned: always`: a user's userName, a group's displayName), beside id and schemas.
 */
export function parseQuery(q: ScimQuery, always: readonly string[] = []): ParsedQuery {
  const filter = q.filter ? parseFilter(q.filter) : null;
  const startIndex = Math.max(1, positive(q.startIndex, 1, 'startIndex'));
  const count = Math.min(MAX_COUNT, Math.max(0, positive(q.count, DEFAULT_COUNT, 'count')));
  const include = q.attributes ? names(q.attributes) : null;
  const exclude = q.excludedAttributes ? names(q.excludedAttributes) : null;
  const kept = new Set(['id', 'schemas', ...always.map((a) => a.toLowerCase())]);
  const project = (resource: Json): Json => {
    if (!include && !exclude) return resource;
    return Object.fromEntries(
      Object.entries(resource).filter(([key]) => {
        const k = key.toLowerCase();
        if (kept.has(k)) return true;
        return include ? include.has(k) : !exclude!.has(k);
      }),
    );
  };
  return { filter, startIndex, count, project };
}

export function listResponse(total: number, startIndex: number, resources: Json[]): Json {
  return { schemas: [LIST_SCHEMA], totalResults: total, startIndex, itemsPerPage: resources.length, Resources: resources };
}

/** One resource with a GET's attributes / excludedAttributes applied. */
export function projected(query: ScimQuery, resource: Json, always: readonly string[] = []): Json {
  return parseQuery({ attributes: query.attributes, excludedAttributes: query.excludedAttributes }, always).project(resource);
}

/**
 * A list answer built from resources read a batch at a time: those the filter matches are
 * counted, and the page (startIndex, count) of them kept.
 */
export class ListAnswer {
  total = 0;
  readonly page: Json[] = [];
  private readonly budget = new FilterBudget();

  constructor(
    private readonly q: ParsedQuery,
    private readonly coreUrn: string,
  ) {}

  /** Adds a batch, then lets the event loop run before the next (a scan of every user is many batches). */
  async add(resources: Json[]): Promise<void> {
    for (const r of resources) {
      if (this.q.filter && !matches(r, this.q.filter, this.coreUrn, this.budget)) continue;
      this.total += 1;
      if (this.total >= this.q.startIndex && this.page.length < this.q.count) this.page.push(r);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }

  response(): Json {
    return listResponse(this.total, this.q.startIndex, this.page.map(this.q.project));
  }
}

/** The value an and-ed `attr eq "v"` pins, for an indexed lookup. */
export function pinned(filter: Filter | null, attr: string): string | null {
  return filter ? pinnedValue(filter, attr) : null;
}

/** The e-mail address a filter requires of every user it matches (`emails.value eq`, `emails[value eq]`), or null. */
export function pinnedEmail(filter: Filter | null): string | null {
  return filter ? pinnedSubValue(filter, 'emails', 'value') : null;
}

/** A SCIM id: the service's integer id as a string; anything else names nothing. */
export function idOf(id: string): number | null {
  return /^[1-9]\d{0,9}$/.test(id) && Number(id) <= 2_147_483_647 ? Number(id) : null;
}

/** true, false, or the strings Entra ID sends ("True", "False"). */
export function booleanOf(value: unknown, name: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw new ScimError('invalidValue', `${name} must be true or false`);
}

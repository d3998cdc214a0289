import type { FastifyInstance } from 'fastify';
import { ValidationException } from '../errors/domain.exception';

/** `filters[status]`, `filters[status][]` or `filters[status][0]`: the field, and whether it names a list. */
const DEEP_KEY = /^filters\[([^\][]{1,64})\](\[\d{0,3}\])?$/;

/**
 * Lists take their filters as a JSON object (`filters={"status":"Active"}`, docs/api/decisions.md §5) or, as the
 * OpenAPI document describes them (`style: deepObject`), one query parameter per field:
 * `filters[status]=Active`, repeated (or `filters[status][]=`) for several values, which is what
 * generated clients send (issue 41). This folds the second form into the first before the list's
 * DTO sees the query; values stay strings, and the list's filter spec reads "3" as the integer 3
 * and "true" as true, as it does in JSON. Giving both forms at once is refused.
 */
export function foldDeepObjectFilters(query: Record<string, unknown>): void {
  const folded = new Map<string, { values: unknown[]; list: boolean }>();
  for (const key of Object.keys(query)) {
    const m = DEEP_KEY.exec(key);
    if (!m) continue;
    const field = folded.get(m[1]) ?? { values: [], list: false };
    const raw = query[key];
    field.values.push(...(Array.isArray(raw) ? (raw as unknown[]) : [raw]));
    field.list ||= m[2] !== undefined;
    folded.set(m[1], field);
    delete query[key];
  }
  if (folded.size === 0) return;
  if (query.filters !== undefined)
    throw ValidationException.field('filters', 'give the filters as one JSON object or as filters[field] parameters, not both');
  const object = Object.create(null) as Record<string, unknown>; // "__proto__" stays a key, refused as unknown
  for (const [name, { values, list }] of folded) object[name] = values.length === 1 && !list ? values[0] : values;
  query.filters = JSON.stringify(object);
}

export function registerDeepObjectFilters(fastify: FastifyInstance): void {
  fastify.addHook('preValidation', (request, _reply, done) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (query && typeof query === 'object') foldDeepObjectFilters(query);
    done();
  });
}

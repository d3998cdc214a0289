import { ApiExtension } from '@nestjs/swagger';
import { FilterField, ListSpec } from './list-request';

/** The operation extension finishDocument turns into the list's sortField enum and filters schema. */
export const LIST_QUERY_EXTENSION = 'x-list-query';

export interface ListQueryDoc {
  sortFields: string[];
  filters: Record<string, object>;
}

/**
 * A filter field's value as generated clients send it (Hardening IV item 11): always a scalar, as
 * deepObject's nested values are undefined in OpenAPI (hey-api and openapi-fetch refuse an array
 * there, orval sends [object Object]). Several ids, codes or dates are `a,b` (any of them); an
 * enumeration is documented as one value so that a typed client checks it (the server takes a,b
 * there too); free text keeps its commas: repeat the parameter, or use the JSON form.
 */
function filterSchema(field: FilterField): object {
  const list = (pattern: string, what: string) => ({
    type: 'string',
    pattern: `^${pattern}(,${pattern})*$`,
    description: `${what}, or several separated by commas (any of them)`,
  });
  if (field.type === 'int') return { oneOf: [{ type: 'integer' }, list('-?\\d+', 'an integer')] };
  if (field.type === 'key') return { oneOf: [{ type: 'integer' }, list('[^,]+', 'an id or a code')] };
  // An enumeration stays one typed value for a generated client (a misspelt status fails to
  // compile); the server also takes a,b (any of them), as the description says.
  // The values themselves, not a copy: a list of what modules declare (approval kinds, notification
  // kinds) is complete only once every module has loaded, when the document is built.
  if (field.values)
    return { type: 'string', enum: field.values, description: 'one value (the server also takes a,b for any of them)' };
  if (field.type === 'boolean') return { type: 'boolean' };
  if (field.type === 'date') return list('\\d{4}-\\d{2}-\\d{2}', 'a date YYYY-MM-DD');
  return { type: 'string', description: 'the value (for several, repeat the parameter or use the JSON form)' };
}

/**
 * Documents a list's query from the spec the service applies (issue 25): `sortField` as the enum of
 * its sort fields, `filters` as a JSON object of its filter fields, each a value or a list of values.
 */
export function ApiListQuery(spec: Pick<ListSpec, 'sortFields' | 'filterFields'>): MethodDecorator {
  const doc: ListQueryDoc = {
    sortFields: Object.keys(spec.sortFields),
    filters: Object.fromEntries(Object.entries(spec.filterFields ?? {}).map(([name, f]) => [name, filterSchema(f)])),
  };
  return ApiExtension(LIST_QUERY_EXTENSION, doc);
}

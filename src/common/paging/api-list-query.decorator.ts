import { ApiExtension } from '@nestjs/swagger';
import { FilterField, ListSpec } from './list-request';

/** The operation extension finishDocument turns into the list's sortField enum and filters schema. */
export const LIST_QUERY_EXTENSION = 'x-list-query';

export interface ListQueryDoc {
  sortFields: string[];
  filters: Record<string, object>;
}

function filterSchema(field: FilterField): object {
  const one =
    field.type === 'int'
      ? { type: 'integer' }
      : field.type === 'key'
        ? { oneOf: [{ type: 'string' }, { type: 'integer' }] }
        : field.values
          ? { type: 'string', enum: [...field.values] }
          : field.type === 'boolean'
            ? { type: 'boolean' }
            : field.type === 'date'
              ? { type: 'string', format: 'date' }
              : { type: 'string' };
  return { oneOf: [one, { type: 'array', items: one }] };
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

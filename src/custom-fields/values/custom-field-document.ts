import { Injectable, OnModuleInit } from '@nestjs/common';
import { OpenAPIObject } from '@nestjs/swagger';
import { AuthUser } from '../../common/auth/auth-user';
import { DocumentPatches } from '../../common/openapi/document-patches';
import { CreateEmployeeDto, EmployeeDto, EmployeeListItemDto, UpdateEmployeeDto } from '../../employees/dto/employee.dto';
import { ChangeFieldsDto, SegmentDto } from '../../employees/history/dto/employment-history.dto';
import { CustomField } from '../entities/custom-field.entity';
import { CustomFieldDefinitions } from './custom-field-definitions';
import { sight } from './custom-field-access';
import { optionValues, TEXT_LIMITS } from './custom-field-codec';
import { PROPERTY } from './custom-field-codec';

type Schemas = NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>;
type SchemaObject = Exclude<Schemas[string], { $ref: string }>;

/** A field's value as the document describes it (every value may be null). */
export function valueSchema(field: CustomField): SchemaObject {
  const described = { nullable: true, description: field.description ? `${field.label}: ${field.description}` : field.label };
  const maxLength = TEXT_LIMITS[field.type];
  switch (field.type) {
    case 'text':
    case 'long_text':
      return { type: 'string', maxLength, ...described };
    case 'email':
      return { type: 'string', format: 'email', maxLength, ...described };
    case 'url':
      return { type: 'string', format: 'uri', maxLength, ...described };
    case 'integer':
      return { type: 'integer', format: 'int64', ...described };
    case 'employee':
      return { type: 'integer', minimum: 1, ...described, description: `${described.description} (an employee's id)` };
    case 'decimal':
      return { type: 'string', pattern: '^-?\\d{1,18}(\\.\\d{1,6})?$', example: '12.5', ...described };
    case 'date':
      return { type: 'string', format: 'date', ...described };
    case 'boolean':
      return { type: 'boolean', ...described };
    case 'select':
      return { type: 'string', enum: optionValues(field), ...described };
    case 'multiselect':
      return { type: 'array', items: { type: 'string', enum: optionValues(field) }, uniqueItems: true, ...described };
  }
}

/** The definitions a user reads (as GET /custom-fields lists them for it). */
export function readableBy(fields: readonly CustomField[], reader: AuthUser): CustomField[] {
  if (reader.level === 'Admin') return [...fields];
  return fields.filter((f) => f.visibleTo.includes(reader.level) || (reader.employeeId !== null && f.visibleTo.includes('self')));
}

/**
 * `document` with `custom_fields` of the employee schemas typed, one property per field (of a
 * change's fields and of the history's segments: per dated field), and GET
 * /employees' `filters` with `custom.<key>` for the fields in `filterable` (a copy of what changes).
 */
export function typedDocument(
  document: OpenAPIObject,
  fields: readonly CustomField[],
  filterable: readonly CustomField[] = [],
): OpenAPIObject {
  const schemas = { ...document.components?.schemas };
  const typed = (of: readonly CustomField[]): SchemaObject => ({
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(of.map((f) => [f.key, valueSchema(f)])),
  });
  const patch = (name: string, of: readonly CustomField[]) => {
    const schema = schemas[name] as SchemaObject | undefined;
    const current = schema?.properties?.[PROPERTY] as SchemaObject | undefined;
    if (!schema || !current) return;
    schemas[name] = {
      ...schema,
      properties: { ...schema.properties, [PROPERTY]: { ...typed(of), description: current.description } },
    };
  };
  for (const dto of [CreateEmployeeDto, UpdateEmployeeDto, EmployeeDto]) patch(dto.name, fields);
  patch(
    EmployeeListItemDto.name,
    fields.filter((f) => f.inList),
  );
  // The dated ones in a change's `fields` and the history's segments.
  for (const dto of [ChangeFieldsDto, SegmentDto])
    patch(
      dto.name,
      fields.filter((f) => f.dated),
    );
  return { ...document, components: { ...document.components, schemas }, paths: withFilters(document.paths, filterable) };
}

/** A filter's value as GET /employees' `filters` describes it: one value, several by commas, a range, or null. */
function filterSchema(field: CustomField): SchemaObject {
  const description = `${field.label}: ${RANGED.includes(field.type) ? 'a value, a,b (any of), a..b, ..b, a.. or null' : 'a value, a,b (any of) or null'}`;
  if (field.type === 'boolean') return { oneOf: [{ type: 'boolean' }, { type: 'string' }], description };
  if (RANGED.includes(field.type) && field.type !== 'date')
    return { oneOf: [{ type: 'number' }, { type: 'string' }], description };
  return { type: 'string', description };
}
const RANGED: readonly CustomField['type'][] = ['integer', 'decimal', 'employee', 'date'];

/** GET /employees' `filters` with a `custom.<key>` property per field in `filterable`. */
function withFilters(paths: OpenAPIObject['paths'], filterable: readonly CustomField[]): OpenAPIObject['paths'] {
  const list = paths['/employees']?.get;
  if (!list?.parameters || !filterable.length) return paths;
  const parameters = list.parameters.map((p) => {
    if (!('name' in p) || p.name !== 'filters' || !p.schema || '$ref' in p.schema) return p;
    const extra = Object.fromEntries(filterable.map((f) => [`custom.${f.key}`, filterSchema(f)]));
    return { ...p, schema: { ...p.schema, properties: { ...p.schema.properties, ...extra } } };
  });
  return { ...paths, '/employees': { ...paths['/employees'], get: { ...list, parameters } } };
}

/**
 * GET /openapi.json (and .yaml, /docs) read with a bearer token types `custom_fields` with the
 * fields that user reads, so a client generated from the installation's document knows them;
 * without a token the document names none (definitions are not public).
 */
@Injectable()
export class CustomFieldDocument implements OnModuleInit {
  constructor(
    private readonly patches: DocumentPatches,
    private readonly definitions: CustomFieldDefinitions,
  ) {}

  onModuleInit(): void {
    this.patches.register(async (document, reader) => {
      if (!reader) return document;
      const fields = readableBy(await this.definitions.recent(), reader);
      // What a reader filters by is what it sees of somebody else (not a long text: no filter).
      const filterable = fields.filter(
        (f) => f.type !== 'long_text' && sight(f, { caller: reader, scope: { kind: 'all' } }, -1) === 'value',
      );
      return fields.length ? typedDocument(document, fields, filterable) : document;
    });
  }
}

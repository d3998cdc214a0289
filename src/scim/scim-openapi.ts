import { declareSchemas } from '../common/openapi/declared-schemas';

/**
 * SCIM's own shapes in the OpenAPI document (RFC 7643 §4.1-4.2 and §8.7.1 for the enterprise
 * extension, RFC 7644 §3.4.2, §3.4.3, §3.5.2 and §3.12), so that a generated client types what
 * this service reads and answers (Hardening IV item 15: every body was an untyped object). SCIM is
 * extensible: a provider's other attributes are kept and answered, so objects stay open.
 */
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str = (description?: string) => ({ type: 'string', ...(description ? { description } : {}) });
const schemas = (urn: string) => ({ type: 'array', items: { type: 'string' }, example: [urn] });
const multiValued = (extra: object = {}) => ({
  type: 'array',
  maxItems: 20,
  items: { type: 'object', properties: { value: str(), type: str(), primary: { type: 'boolean' }, ...extra } },
});
export const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

declareSchemas({
  ScimMeta: {
    type: 'object',
    properties: {
      resourceType: { type: 'string', enum: ['User', 'Group'] },
      created: { type: 'string', format: 'date-time' },
      lastModified: { type: 'string', format: 'date-time' },
      location: { type: 'string', format: 'uri' },
    },
  },
  ScimUser: {
    type: 'object',
    description: 'A user (RFC 7643 §4.1), with the enterprise extension; other attributes a provider sends are kept',
    required: ['userName'],
    properties: {
      schemas: schemas(SCIM_USER),
      id: str('read only'),
      externalId: str(),
      userName: str('the sign-in name, unique (case ignored)'),
      name: { type: 'object', properties: { formatted: str(), givenName: str(), familyName: str() } },
      displayName: str(),
      active: { type: 'boolean', description: 'false deactivates the user and ends its tokens at once' },
      emails: multiValued(),
      phoneNumbers: multiValued(),
      groups: {
        type: 'array',
        description: 'read only: the groups the user is a member of',
        items: { type: 'object', properties: { value: str(), display: str() } },
      },
      [SCIM_ENTERPRISE]: {
        type: 'object',
        properties: {
          employeeNumber: str("the employee's employee_id: links the user to it"),
          department: str(),
          manager: { type: 'object', properties: { value: str(), displayName: str() } },
        },
      },
      meta: ref('ScimMeta'),
    },
  },
  ScimGroup: {
    type: 'object',
    description: 'A group (RFC 7643 §4.2); members are users',
    required: ['displayName'],
    properties: {
      schemas: schemas('urn:ietf:params:scim:schemas:core:2.0:Group'),
      id: str('read only'),
      externalId: str(),
      displayName: str('a name the "SCIM Group Levels" setting may map to a user level'),
      members: {
        type: 'array',
        items: { type: 'object', required: ['value'], properties: { value: str('a user id'), display: str() } },
      },
      meta: ref('ScimMeta'),
    },
  },
  ScimUserList: list('ScimUser'),
  ScimGroupList: list('ScimGroup'),
  ScimPatchOp: {
    type: 'object',
    description: 'RFC 7644 §3.5.2, in the forms Entra ID and Okta send (op in any case, a path or a value object)',
    required: ['Operations'],
    properties: {
      schemas: schemas('urn:ietf:params:scim:api:messages:2.0:PatchOp'),
      Operations: {
        type: 'array',
        items: {
          type: 'object',
          required: ['op'],
          properties: {
            op: { type: 'string', description: 'add, remove or replace (any case)' },
            path: str('an attribute path, a value filter (members[value eq "5"]) or none'),
            value: { description: 'the value: a string, a boolean, an object or a list, as the path needs' },
          },
        },
      },
    },
  },
  ScimSearchRequest: {
    type: 'object',
    description: 'RFC 7644 §3.4.3: the query parameters of a GET list as a body',
    properties: {
      schemas: schemas('urn:ietf:params:scim:api:messages:2.0:SearchRequest'),
      filter: str(),
      startIndex: { type: 'integer', minimum: 1 },
      count: { type: 'integer', minimum: 0, maximum: 1000 },
      attributes: { type: 'array', items: { type: 'string' } },
      excludedAttributes: { type: 'array', items: { type: 'string' } },
    },
  },
  ScimError: {
    type: 'object',
    description: 'RFC 7644 §3.12',
    required: ['schemas', 'status'],
    properties: {
      schemas: schemas('urn:ietf:params:scim:api:messages:2.0:Error'),
      status: str('the HTTP status, as a string'),
      scimType: {
        type: 'string',
        enum: [
          'invalidFilter',
          'tooMany',
          'uniqueness',
          'mutability',
          'invalidSyntax',
          'invalidPath',
          'noTarget',
          'invalidValue',
        ],
      },
      detail: str(),
    },
    example: {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '409',
      scimType: 'uniqueness',
      detail: 'userName is taken',
    },
  },
});

function list(item: string): object {
  return {
    type: 'object',
    description: 'RFC 7644 §3.4.2',
    required: ['schemas', 'totalResults', 'Resources'],
    properties: {
      schemas: schemas('urn:ietf:params:scim:api:messages:2.0:ListResponse'),
      totalResults: { type: 'integer' },
      startIndex: { type: 'integer' },
      itemsPerPage: { type: 'integer' },
      Resources: { type: 'array', items: ref(item) },
    },
  };
}

/** The reference of a declared SCIM schema. */
export const scimSchema = (
  name: 'ScimUser' | 'ScimGroup' | 'ScimUserList' | 'ScimGroupList' | 'ScimPatchOp' | 'ScimSearchRequest' | 'ScimError',
) => ref(name);

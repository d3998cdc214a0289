import {
  ENTERPRISE_ATTRIBUTES,
  ENTERPRISE_SCHEMA,
  GROUP_ATTRIBUTES,
  GROUP_SCHEMA,
  Json,
  LIST_SCHEMA,
  schemaDocument,
  USER_ATTRIBUTES,
  USER_SCHEMA,
} from './scim-schema';
import { MAX_COUNT } from './scim-query';

/** RFC 7643 §5: what this service provider supports. */
export function serviceProviderConfig(base: string, docs: string): Json {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri: docs,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_COUNT },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: 'A SCIM token an Admin issues with POST /scim-tokens, sent as Authorization: Bearer <token>',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

export function resourceTypes(base: string): Json[] {
  return [
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'User Account',
      schema: USER_SCHEMA,
      schemaExtensions: [{ schema: ENTERPRISE_SCHEMA, required: false }],
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` },
    },
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'Group',
      schema: GROUP_SCHEMA,
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/Group` },
    },
  ];
}

export function schemas(base: string): Json[] {
  return [
    schemaDocument(USER_SCHEMA, 'User', 'User Account', USER_ATTRIBUTES, base),
    schemaDocument(ENTERPRISE_SCHEMA, 'EnterpriseUser', 'Enterprise User', ENTERPRISE_ATTRIBUTES, base),
    schemaDocument(GROUP_SCHEMA, 'Group', 'Group', GROUP_ATTRIBUTES, base),
  ];
}

export function asList(resources: Json[]): Json {
  return {
    schemas: [LIST_SCHEMA],
    totalResults: resources.length,
    startIndex: 1,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

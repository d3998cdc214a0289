/** The SCIM schemas the service implements (RFC 7643 §4, §8.7) and their attributes. */
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

export interface AttributeDef {
  name: string;
  type: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime';
  multiValued?: boolean;
  mutability?: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  required?: boolean;
  uniqueness?: 'none' | 'server';
  caseExact?: boolean;
  /** `always`: answered whatever attributes / excludedAttributes say (RFC 7643 §2.4); `default` otherwise. */
  returned?: 'always';
  description: string;
  subAttributes?: AttributeDef[];
}

const str = (name: string, description: string, extra: Partial<AttributeDef> = {}): AttributeDef => ({
  name,
  type: 'string',
  description,
  ...extra,
});
const multi = (name: string, description: string, subs: string[]): AttributeDef => ({
  name,
  type: 'complex',
  multiValued: true,
  description,
  subAttributes: subs.map((s) => (s === 'primary' ? { name: s, type: 'boolean', description: 'the primary value' } : str(s, s))),
});

const EXTERNAL_ID = str('externalId', "The provider's identifier of the resource", { caseExact: true });

export const USER_ATTRIBUTES: AttributeDef[] = [
  EXTERNAL_ID,
  str('userName', 'Unique identifier for the User, the sign-in name (case-insensitive)', {
    required: true,
    uniqueness: 'server',
    returned: 'always',
  }),
  {
    name: 'name',
    type: 'complex',
    description: "The components of the user's name",
    subAttributes: ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'].map((s) =>
      str(s, s),
    ),
  },
  str('displayName', 'The name of the User, for display'),
  str('nickName', 'The casual name'),
  str('profileUrl', 'A URL of the profile'),
  str('title', "The user's title (Vice President)"),
  str('userType', 'The relationship to the organisation (Employee, Contractor)'),
  str('preferredLanguage', 'Preferred written or spoken language'),
  str('locale', 'Default location for localising'),
  str('timezone', 'Time zone (IANA)'),
  { name: 'active', type: 'boolean', description: 'The user may sign in; false deactivates it and ends its tokens' },
  str('password', 'Not kept: users provisioned by SCIM sign in through single sign-on', { mutability: 'writeOnly' }),
  multi('emails', 'E-mail addresses', ['value', 'display', 'type', 'primary']),
  multi('phoneNumbers', 'Phone numbers', ['value', 'display', 'type', 'primary']),
  multi('ims', 'Instant messaging addresses', ['value', 'display', 'type', 'primary']),
  multi('photos', 'URLs of photos', ['value', 'display', 'type', 'primary']),
  multi('addresses', 'Physical mailing addresses', [
    'formatted',
    'streetAddress',
    'locality',
    'region',
    'postalCode',
    'country',
    'type',
    'primary',
  ]),
  {
    ...multi('groups', 'The groups the user belongs to (read only: change them through Groups)', [
      'value',
      '$ref',
      'display',
      'type',
    ]),
    mutability: 'readOnly',
  },
  multi('entitlements', 'Entitlements', ['value', 'display', 'type', 'primary']),
  multi('roles', 'Roles', ['value', 'display', 'type', 'primary']),
  multi('x509Certificates', 'Certificates', ['value', 'display', 'type', 'primary']),
];

export const ENTERPRISE_ATTRIBUTES: AttributeDef[] = [
  str('employeeNumber', 'Links the user to the employee with this employee_id (else externalId is tried)'),
  str('costCenter', 'Cost center'),
  str('organization', 'Organization'),
  str('division', 'Division'),
  str('department', 'Department'),
  {
    name: 'manager',
    type: 'complex',
    description: "The user's manager",
    subAttributes: [str('value', 'the manager user id'), str('$ref', 'the manager URI'), str('displayName', 'the manager name')],
  },
];

export const GROUP_ATTRIBUTES: AttributeDef[] = [
  EXTERNAL_ID,
  str('displayName', 'A name for the group; "SCIM Group Levels" maps names to user levels', {
    required: true,
    uniqueness: 'server',
    returned: 'always',
  }),
  // displayName: what the Microsoft collection sends for a member's display.
  { ...multi('members', 'The users of the group', ['value', '$ref', 'display', 'displayName', 'type']) },
];

/** Attributes every resource has (RFC 7643 §3.1). */
export const COMMON = ['id', 'meta', 'schemas'];

export type Json = Record<string, unknown>;

/**
 * A resource body with its attribute names as the schema spells them (clients send "Primary",
 * "Department", "Manager": {"Value"}); attributes the schema does not know are dropped, as RFC
 * 7644 §3.3 lets a service provider ignore them; the extension under its URN likewise.
 */
export function canonical(body: Json, attrs: AttributeDef[], extension?: { urn: string; attrs: AttributeDef[] }): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(body)) {
    const lower = key.toLowerCase();
    if (extension && lower === extension.urn.toLowerCase()) {
      if (typeof value === 'object' && value !== null && !Array.isArray(value))
        out[extension.urn] = canonical(value as Json, extension.attrs);
      continue;
    }
    const common = COMMON.find((c) => c.toLowerCase() === lower);
    if (common) {
      out[common] = value;
      continue;
    }
    const def = attrs.find((a) => a.name.toLowerCase() === lower);
    if (!def) continue;
    out[def.name] = canonicalValue(value, def);
  }
  return out;
}

export function canonicalValue(value: unknown, def: AttributeDef): unknown {
  if (def.type !== 'complex' || value === null || value === undefined) return value;
  const one = (v: unknown): unknown =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? canonical(v as Json, def.subAttributes ?? []) : v;
  if (def.multiValued) {
    const list: unknown[] = Array.isArray(value) ? value : [value];
    // A bare value in a list of complex values is its "value" (members: "a user id").
    return list.map((v) => (typeof v === 'object' && v !== null ? one(v) : { value: v }));
  }
  return one(value);
}

/** The definition a path's first part names (with its URN, when it has one), or null. */
export function attributeOf(
  attr: string,
  urn: string | null,
  coreUrn: string,
  attrs: AttributeDef[],
  extension?: { urn: string; attrs: AttributeDef[] },
): { def: AttributeDef; inExtension: boolean } | null {
  if (urn && urn !== coreUrn.toLowerCase()) {
    if (!extension || urn !== extension.urn.toLowerCase()) return null;
    const def = extension.attrs.find((a) => a.name.toLowerCase() === attr);
    return def ? { def, inExtension: true } : null;
  }
  const def = attrs.find((a) => a.name.toLowerCase() === attr);
  return def ? { def, inExtension: false } : null;
}

/** The schema documents of GET /Schemas (RFC 7643 §7). */
export function schemaDocument(id: string, name: string, description: string, attributes: AttributeDef[], base: string): Json {
  const attribute = (a: AttributeDef): Json => ({
    name: a.name,
    type: a.type,
    multiValued: a.multiValued ?? false,
    description: a.description,
    required: a.required ?? false,
    caseExact: a.caseExact ?? false,
    mutability: a.mutability ?? 'readWrite',
    returned: a.mutability === 'writeOnly' ? 'never' : (a.returned ?? 'default'),
    uniqueness: a.uniqueness ?? 'none',
    ...(a.subAttributes ? { subAttributes: a.subAttributes.map(attribute) } : {}),
  });
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    id,
    name,
    description,
    attributes: attributes.map(attribute),
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${id}` },
  };
}

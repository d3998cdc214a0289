import { Injectable } from '@nestjs/common';
import { NotFoundException } from '../common/errors/domain.exception';
import { NO_MAIL_DOMAIN, ProvisionedFields, ProvisionedUser, UserProvisioningService } from '../users/user-provisioning.service';
import { normalizeLogin } from '../auth/token.service';
import { ResourceSchema, applyPatch } from './scim-patch';
import { booleanOf, idOf, ListAnswer, listResponse, parseQuery, pinned, pinnedEmail, projected, ScimQuery } from './scim-query';
import { canonical, ENTERPRISE_ATTRIBUTES, ENTERPRISE_SCHEMA, Json, USER_ATTRIBUTES, USER_SCHEMA } from './scim-schema';
import { ScimGroupsService } from './scim-groups.service';
import { ScimError } from './scim.error';

export const USER_RESOURCE: ResourceSchema = {
  coreUrn: USER_SCHEMA,
  attrs: USER_ATTRIBUTES,
  extension: { urn: ENTERPRISE_SCHEMA, attrs: ENTERPRISE_ATTRIBUTES },
};

/** Answered whatever attributes / excludedAttributes say (the schema's returned: always; the document requires it). */
const ALWAYS = ['userName'];
/** Kept by columns or made by the service, never among the stored attributes. */
const NOT_STORED = new Set(['id', 'meta', 'schemas', 'groups', 'password', 'active', 'externalId']);
const SCAN_BATCH = 1000;
/**
 * At most this many values in a user's multi-valued attribute (emails, phoneNumbers, addresses...):
 * identity providers send one to three; a filter's cost grows with them (docs/api/scim.md, "Limits").
 */
export const MAX_MULTI_VALUES = 20;

const notFound = () => new NotFoundException('User');

/** An address the database can look for as it is: ASCII, no quotes or backslashes (JSON would escape them). */
const pushedDown = (address: string | null): address is string =>
  address !== null && /^[\x20-\x7e]+$/.test(address) && !/["\\]/.test(address);

/**
 * SCIM Users (RFC 7643 §4.1 with the enterprise extension) over the service's users: userName is
 * the username (shown in the case the provider sent), active the active flag, externalId a column,
 * the other attributes kept as the provider sent them. A user is linked to the employee whose
 * employee_id is its enterpise employeeNumber, else its externalId.
 */
@Injectable()
export class ScimUsersService {
  constructor(
    private readonly users: UserProvisioningService,
    private readonly groups: ScimGroupsService,
  ) {}

  async list(query: ScimQuery, base: string): Promise<Json> {
    const q = parseQuery(query, ALWAYS);
    const byName = pinned(q.filter, 'username');
    const byExternal = pinned(q.filter, 'externalid');
    const byId = pinned(q.filter, 'id');
    const answer = new ListAnswer(q, USER_SCHEMA);
    if (byName !== null || byExternal !== null || byId !== null) {
      const candidates =
        byName !== null
          ? await this.users.by('username', byName)
          : byExternal !== null
            ? await this.users.by('externalId', byExternal)
            : await this.users.byIds([idOf(byId!) ?? 0].filter(Boolean));
      await answer.add(await this.resources(candidates, base));
    } else if (!q.filter) {
      // No filter: the page alone is read, the total is a count.
      const found: Json[] = [];
      let after = 0;
      let skipped = 0;
      while (found.length < q.count) {
        const batch = await this.users.scan(after, Math.min(SCAN_BATCH, q.startIndex - 1 - skipped + q.count));
        if (!batch.length) break;
        after = batch[batch.length - 1].id;
        const skip = Math.min(batch.length, q.startIndex - 1 - skipped);
        skipped += skip;
        found.push(...(await this.resources(batch.slice(skip, skip + q.count - found.length), base)));
      }
      return listResponse(await this.users.count(), q.startIndex, found.map(q.project));
    } else {
      // A filter no index answers: every user is read once, a batch at a time; with emails.value eq,
      // only the users the database finds with that address (Hardening IV item 22).
      const address = pinnedEmail(q.filter);
      const read = pushedDown(address)
        ? (after: number) => this.users.withEmail(address, after, SCAN_BATCH)
        : (after: number) => this.users.scan(after, SCAN_BATCH);
      for (let after = 0; ;) {
        const batch = await read(after);
        if (!batch.length) break;
        after = batch[batch.length - 1].id;
        await answer.add(await this.resources(batch, base));
      }
    }
    return answer.response();
  }

  async get(id: string, base: string, query: ScimQuery = {}): Promise<Json> {
    const user = await this.find(id);
    return projected(query, (await this.resources([user], base))[0], ALWAYS);
  }

  async create(body: unknown, base: string): Promise<Json> {
    const user = await this.users.create(this.fields(body));
    return (await this.resources([user], base))[0];
  }

  async replace(id: string, body: unknown, base: string): Promise<Json> {
    const user = await this.find(id);
    const updated = await this.users.replace(user.id, this.fields(body));
    return (await this.resources([updated], base))[0];
  }

  async patch(id: string, body: unknown, base: string): Promise<void> {
    const user = await this.find(id);
    const current = (await this.resources([user], base))[0];
    await this.users.replace(user.id, this.fields(applyPatch(current, body, USER_RESOURCE)));
  }

  async remove(id: string): Promise<void> {
    const user = await this.find(id);
    await this.users.remove(user.id);
  }

  private async find(id: string): Promise<ProvisionedUser> {
    const n = idOf(id);
    const user = n === null ? null : await this.users.byId(n);
    if (!user) throw notFound();
    return user;
  }

  /** What a resource body sets, checked: userName required, active a boolean, sizes bounded. */
  private fields(body: unknown): ProvisionedFields {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new ScimError('invalidSyntax', 'Send a User resource as a JSON object');
    const r = canonical(body as Json, USER_ATTRIBUTES, USER_RESOURCE.extension);
    if (typeof r.userName !== 'string' || !r.userName.trim()) throw new ScimError('invalidValue', 'userName is required');
    if (r.externalId !== undefined && r.externalId !== null && (typeof r.externalId !== 'string' || r.externalId.length > 255)) {
      throw new ScimError('invalidValue', 'externalId must be a string of at most 255 characters');
    }
    for (const [name, value] of Object.entries(r)) {
      if (Array.isArray(value) && value.length > MAX_MULTI_VALUES && name !== 'schemas') {
        throw new ScimError('invalidValue', `${name} holds at most ${MAX_MULTI_VALUES} values`);
      }
    }
    const active = r.active === undefined || r.active === null ? true : booleanOf(r.active, 'active');
    const emails = Array.isArray(r.emails) ? (r.emails as Json[]) : [];
    const rank = (e: Json) => (e.primary === true || String(e.primary).toLowerCase() === 'true' ? 0 : e.type === 'work' ? 1 : 2);
    const ordered = [...emails].sort((a, b) => rank(a) - rank(b)).flatMap((e) => (typeof e.value === 'string' ? [e.value] : []));
    const enterprise = (r[ENTERPRISE_SCHEMA] ?? {}) as Json;
    const numbers = [enterprise.employeeNumber, r.externalId].filter((v): v is string => typeof v === 'string');
    const attributes = Object.fromEntries(Object.entries(r).filter(([k]) => !NOT_STORED.has(k)));
    attributes.userName = r.userName.trim();
    return {
      username: r.userName.trim(),
      emails: ordered,
      active,
      externalId: r.externalId ?? null,
      attributes,
      employeeNumbers: numbers,
    };
  }

  private async resources(users: ProvisionedUser[], base: string): Promise<Json[]> {
    const groups = await this.groups.groupsOf(users.map((u) => u.id));
    return users.map((u) => {
      const { userName, ...attrs } = u.attributes as Json & { userName?: string };
      const name = typeof userName === 'string' && normalizeLogin(userName) === u.username ? userName : u.username;
      const emails =
        attrs.emails ?? (u.email.endsWith(`@${NO_MAIL_DOMAIN}`) ? undefined : [{ value: u.email, type: 'work', primary: true }]);
      const member = groups.get(u.id) ?? [];
      return {
        schemas: attrs[ENTERPRISE_SCHEMA] ? [USER_SCHEMA, ENTERPRISE_SCHEMA] : [USER_SCHEMA],
        id: String(u.id),
        ...(u.externalId !== null ? { externalId: u.externalId } : {}),
        userName: name,
        ...attrs,
        ...(emails ? { emails } : {}),
        active: u.active,
        ...(member.length
          ? {
              groups: member.map((g) => ({
                value: String(g.id),
                display: g.displayName,
                $ref: `${base}/Groups/${g.id}`,
                type: 'direct',
              })),
            }
          : {}),
        meta: {
          resourceType: 'User',
          created: u.createdAt.toISOString(),
          lastModified: u.updatedAt.toISOString(),
          location: `${base}/Users/${u.id}`,
        },
      };
    });
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, MoreThan } from 'typeorm';
import { recordAudit } from '../common/audit/audit-log';
import { USER_LEVELS, UserLevel } from '../common/auth/user-level';
import { transaction } from '../common/database/transaction';
import { isUniqueViolation } from '../common/errors/db-errors';
import { NotFoundException } from '../common/errors/domain.exception';
import { SCIM_GROUP_LEVELS, parseScimGroupLevels } from './scim.settings';
import { SettingsService } from '../settings/settings.service';
import { UserProvisioningService } from '../users/user-provisioning.service';
import { ScimGroup, ScimGroupMember } from './entities/scim.entities';
import { applyPatch, ResourceSchema } from './scim-patch';
import { idOf, ListAnswer, parseQuery, pinned, projected, ScimQuery } from './scim-query';
import { canonical, GROUP_ATTRIBUTES, GROUP_SCHEMA, Json } from './scim-schema';
import { ScimError } from './scim.error';

export const GROUP_RESOURCE: ResourceSchema = { coreUrn: GROUP_SCHEMA, attrs: GROUP_ATTRIBUTES };

/** Answered whatever attributes / excludedAttributes say (the schema's returned: always; the document requires it). */
const ALWAYS = ['displayName'];
/** Groups read a batch at a time by a list: with their members, a batch is bounded in memory and in a filter's work between yields. */
const GROUP_BATCH = 100;
/** Members in one request (a PUT, a POST, or a PATCH's result): identity providers send them in pages (docs/api/scim.md, "Limits"). */
const MAX_MEMBERS = 10_000;

interface GroupFields {
  displayName: string;
  externalId: string | null;
  members: Array<{ userId: number; display: string | null }>;
}

/**
 * SCIM Groups (RFC 7643 §4.2). Members are users of the service; a member value that names no user
 * is left out (a provider may send a group before its members). A group named in the "SCIM Group
 * Levels" setting gives its members that level: a user gets the highest level of its mapped groups,
 * and one who leaves them all becomes Employee; the last active Admin is never demoted (409).
 */
@Injectable()
export class ScimGroupsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UserProvisioningService,
    private readonly settings: SettingsService,
  ) {}

  /** The groups of each user, for the users' `groups` attribute. */
  async groupsOf(userIds: number[]): Promise<Map<number, ScimGroup[]>> {
    const out = new Map<number, ScimGroup[]>();
    if (!userIds.length) return out;
    const rows = await this.dataSource.getRepository(ScimGroupMember).find({ where: { userId: In(userIds) } });
    if (!rows.length) return out;
    const groups = await this.dataSource
      .getRepository(ScimGroup)
      .find({ where: { id: In([...new Set(rows.map((r) => r.groupId))]) } });
    const byId = new Map(groups.map((g) => [g.id, g]));
    for (const r of rows) out.set(r.userId, [...(out.get(r.userId) ?? []), byId.get(r.groupId)!]);
    return out;
  }

  async list(query: ScimQuery, base: string): Promise<Json> {
    const q = parseQuery(query, ALWAYS);
    // displayName is not case-exact: a pinned name picks its groups from the rows in any case (a
    // WHERE on the column would be case-sensitive on SQLite), before members are read.
    const name = pinned(q.filter, 'displayname')?.toLowerCase() ?? null;
    const repo = this.dataSource.getRepository(ScimGroup);
    const answer = new ListAnswer(q, GROUP_SCHEMA);
    for (let after = 0; ;) {
      const batch = await repo.find({ where: { id: MoreThan(after) }, order: { id: 'ASC' }, take: GROUP_BATCH });
      if (!batch.length) break;
      after = batch[batch.length - 1].id;
      const candidates = name === null ? batch : batch.filter((g) => g.displayName.toLowerCase() === name);
      await answer.add(await this.resources(candidates, base));
    }
    return answer.response();
  }

  async get(id: string, base: string, query: ScimQuery = {}): Promise<Json> {
    const group = await this.find(this.dataSource.manager, id);
    return projected(query, (await this.resources([group], base))[0], ALWAYS);
  }

  async create(body: unknown, base: string): Promise<Json> {
    const fields = await this.fields(body);
    const id = await this.write(null, fields);
    return this.get(String(id), base);
  }

  async replace(id: string, body: unknown, base: string): Promise<Json> {
    const group = await this.find(this.dataSource.manager, id);
    await this.write(group.id, await this.fields(body));
    return this.get(String(group.id), base);
  }

  async patch(id: string, body: unknown, base: string): Promise<void> {
    const group = await this.find(this.dataSource.manager, id);
    const current = (await this.resources([group], base))[0];
    await this.write(group.id, await this.fields(applyPatch(current, body, GROUP_RESOURCE)));
  }

  async remove(id: string): Promise<void> {
    const group = await this.find(this.dataSource.manager, id);
    const members = await this.dataSource.getRepository(ScimGroupMember).find({ where: { groupId: group.id } });
    await transaction(this.dataSource, async (em) => {
      await em.delete(ScimGroupMember, { groupId: group.id });
      await em.delete(ScimGroup, { id: group.id });
      await recordAudit(em, {
        action: 'delete',
        resource: 'scim-groups',
        resourceId: group.id,
        before: { display_name: group.displayName, members: members.length },
      });
    });
    await this.applyLevels(
      members.map((m) => m.userId),
      [group.displayName],
    );
  }

  private async find(em: EntityManager, id: string): Promise<ScimGroup> {
    const n = idOf(id);
    const group = n === null ? null : await em.findOneBy(ScimGroup, { id: n });
    if (!group) throw new NotFoundException('Group');
    return group;
  }

  private async fields(body: unknown): Promise<GroupFields> {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new ScimError('invalidSyntax', 'Send a Group resource as a JSON object');
    const r = canonical(body as Json, GROUP_ATTRIBUTES);
    if (typeof r.displayName !== 'string' || !r.displayName.trim() || r.displayName.length > 255) {
      throw new ScimError('invalidValue', 'displayName is required (at most 255 characters)');
    }
    if (r.externalId !== undefined && r.externalId !== null && (typeof r.externalId !== 'string' || r.externalId.length > 255)) {
      throw new ScimError('invalidValue', 'externalId must be a string of at most 255 characters');
    }
    const raw = Array.isArray(r.members) ? (r.members as Json[]) : [];
    if (raw.length > MAX_MEMBERS) throw new ScimError('tooMany', `At most ${MAX_MEMBERS} members in one request`);
    const wanted = new Map<number, string | null>();
    for (const m of raw) {
      const id = typeof m.value === 'string' || typeof m.value === 'number' ? idOf(String(m.value)) : null;
      const display = typeof m.display === 'string' ? m.display : typeof m.displayName === 'string' ? m.displayName : null;
      if (id !== null) wanted.set(id, display?.slice(0, 255) ?? null);
    }
    const existing = new Set((await this.users.byIds([...wanted.keys()])).map((u) => u.id));
    return {
      displayName: r.displayName.trim(),
      externalId: r.externalId ?? null,
      members: [...wanted].filter(([id]) => existing.has(id)).map(([userId, display]) => ({ userId, display })),
    };
  }

  /** Creates (id null) or replaces a group with its members; then the members' levels follow the mapping. */
  private async write(id: number | null, fields: GroupFields): Promise<number> {
    let before: { name: string | null; members: number[] } = { name: null, members: [] };
    let groupId = id ?? 0;
    try {
      await transaction(this.dataSource, async (em) => {
        if (id !== null) {
          const group = await this.find(em, String(id));
          const members = await em.find(ScimGroupMember, { where: { groupId: id } });
          before = { name: group.displayName, members: members.map((m) => m.userId) };
          await em.update(ScimGroup, { id }, { displayName: fields.displayName, externalId: fields.externalId });
          await em.delete(ScimGroupMember, { groupId: id });
        } else {
          groupId = (await em.getRepository(ScimGroup).save({ displayName: fields.displayName, externalId: fields.externalId }))
            .id;
        }
        if (fields.members.length)
          await em.insert(
            ScimGroupMember,
            fields.members.map((m) => ({ groupId, ...m })),
          );
        const after = fields.members.map((m) => m.userId);
        await recordAudit(em, {
          action: id === null ? 'create' : 'update',
          resource: 'scim-groups',
          resourceId: groupId,
          before: id === null ? null : { display_name: before.name, external_id: undefined, members: before.members },
          after: { display_name: fields.displayName, external_id: fields.externalId, members: after },
        });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ScimError('uniqueness', `A group named "${fields.displayName}" exists`);
      throw err;
    }
    const touched = [...new Set([...before.members, ...fields.members.map((m) => m.userId)])];
    await this.applyLevels(
      touched,
      [before.name, fields.displayName].filter((n): n is string => n !== null),
    );
    return groupId;
  }

  /** Sets the users' levels from their mapped groups, when one of `groupNames` is mapped. */
  private async applyLevels(userIds: number[], groupNames: string[]): Promise<void> {
    const mapping = parseScimGroupLevels(await this.settings.get(SCIM_GROUP_LEVELS));
    if (!userIds.length || !groupNames.some((n) => mapping.has(n))) return;
    const rows = await this.dataSource.getRepository(ScimGroupMember).find({ where: { userId: In(userIds) } });
    const groups = rows.length
      ? await this.dataSource.getRepository(ScimGroup).find({ where: { id: In([...new Set(rows.map((r) => r.groupId))]) } })
      : [];
    const nameOf = new Map(groups.map((g) => [g.id, g.displayName]));
    const rank = (l: UserLevel) => USER_LEVELS.indexOf(l);
    const levels = new Map<number, UserLevel>(userIds.map((u) => [u, 'Employee']));
    for (const r of rows) {
      const level = mapping.get(nameOf.get(r.groupId) ?? '');
      if (level && rank(level) < rank(levels.get(r.userId)!)) levels.set(r.userId, level);
    }
    await this.users.setLevels(levels);
  }

  private async resources(groups: ScimGroup[], base: string): Promise<Json[]> {
    const members = groups.length
      ? await this.dataSource.getRepository(ScimGroupMember).find({ where: { groupId: In(groups.map((g) => g.id)) } })
      : [];
    const users = new Map((await this.users.byIds([...new Set(members.map((m) => m.userId))])).map((u) => [u.id, u]));
    return groups.map((g) => ({
      schemas: [GROUP_SCHEMA],
      id: String(g.id),
      ...(g.externalId !== null ? { externalId: g.externalId } : {}),
      displayName: g.displayName,
      members: members
        .filter((m) => m.groupId === g.id)
        .map((m) => {
          const u = users.get(m.userId);
          const shown = m.display ?? (u?.attributes.displayName as string | undefined) ?? u?.username ?? null;
          return {
            value: String(m.userId),
            ...(shown ? { display: shown } : {}),
            $ref: `${base}/Users/${m.userId}`,
            type: 'User',
          };
        }),
      meta: {
        resourceType: 'Group',
        created: g.createdAt.toISOString(),
        lastModified: g.updatedAt.toISOString(),
        location: `${base}/Groups/${g.id}`,
      },
    }));
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { recordAudit } from '../common/audit/audit-log';
import { transaction } from '../common/database/transaction';
import { NotFoundException } from '../common/errors/domain.exception';
import { ScimToken } from './entities/scim.entities';

export interface ScimTokenView {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const toView = (t: ScimToken): ScimTokenView => ({
  id: t.id,
  name: t.name,
  created_at: t.createdAt.toISOString(),
  last_used_at: t.lastUsedAt?.toISOString() ?? null,
});
/** last_used_at is written at most once a minute per token, not on every provisioning call. */
const TOUCH_EVERY_MS = 60_000;

/**
 * SCIM tokens (docs/api/decisions.md §23): issued by an Admin, shown once, stored as SHA-256, good for /scim/v2
 * only (the REST bearer authenticator never looks at this table, nor this one at oauth_tokens).
 */
@Injectable()
export class ScimTokensService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async issue(name: string, createdBy: number | null): Promise<ScimTokenView & { token: string }> {
    const token = `hrs_${randomBytes(32).toString('base64url')}`;
    const saved = await transaction(this.dataSource, async (em) => {
      const row = await em.getRepository(ScimToken).save({ name, tokenHash: hash(token), createdBy, lastUsedAt: null });
      await recordAudit(em, { action: 'create', resource: 'scim-tokens', resourceId: row.id, after: { name } });
      return row;
    });
    const row = await this.dataSource.getRepository(ScimToken).findOneByOrFail({ id: saved.id });
    return { ...toView(row), token };
  }

  async list(): Promise<ScimTokenView[]> {
    return (await this.dataSource.getRepository(ScimToken).find({ order: { id: 'ASC' } })).map(toView);
  }

  async get(id: number): Promise<ScimTokenView> {
    const row = await this.dataSource.getRepository(ScimToken).findOneBy({ id });
    if (!row) throw new NotFoundException('SCIM token');
    return toView(row);
  }

  async remove(id: number): Promise<{ id: number }> {
    await transaction(this.dataSource, async (em) => {
      const row = await em.findOneBy(ScimToken, { id });
      if (!row) throw new NotFoundException('SCIM token');
      await em.delete(ScimToken, { id });
      await recordAudit(em, { action: 'delete', resource: 'scim-tokens', resourceId: id, before: { name: row.name } });
    });
    return { id };
  }

  /** Whether a presented token is a current SCIM token (no cache: a deleted token stops at once). */
  async check(token: string): Promise<boolean> {
    if (!token.startsWith('hrs_') || token.length > 200) return false;
    const row = await this.dataSource
      .getRepository(ScimToken)
      .findOne({ where: { tokenHash: hash(token) }, select: { id: true, lastUsedAt: true } });
    if (!row) return false;
    if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
      await this.dataSource.getRepository(ScimToken).update({ id: row.id }, { lastUsedAt: new Date() });
    }
    return true;
  }
}

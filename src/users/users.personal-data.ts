import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { TokenService } from '../auth/token.service';
import { recordAudit } from '../common/audit/audit-log';
import { AnonymisedSubject, PersonalData } from '../common/privacy/personal-data';
import { storedRowList } from '../common/privacy/subject-export';
import { User } from './entities/user.entity';
import { assertAdminsRemain } from './last-admin';
import { userAuditView } from './users.service';

/**
 * The user accounts of a person (issue 69): its user name and e-mail address are personal; the
 * anonymisation deletes its users (tokens, scope, second factors and idempotency keys go with them,
 * by their foreign keys; 409 LAST_ADMIN when that leaves no active Admin), audited as a deletion.
 */
@Injectable()
export class UsersPersonalData {
  constructor(
    registry: PersonalData,
    private readonly tokens: TokenService,
  ) {
    registry.register(
      {
        name: 'users',
        order: 20,
        values: async (em, employeeId) =>
          (await em.getRepository(User).findBy({ employeeId })).flatMap((u) => [u.username, u.email]),
        anonymise: (em, subject) => this.anonymise(em, subject),
        // employee.json's `users`: the accounts as stored, never a password hash or a provider's subject.
        export: async (em, employeeId, out) =>
          out.section(
            'users',
            await storedRowList(em, {
              name: 'users',
              entity: User,
              where: { employeeId },
              omit: ['password_hash', 'oidc_subject'],
            }),
          ),
      },
      ['username', 'email'],
    );
  }

  private async anonymise(em: EntityManager, subject: AnonymisedSubject): Promise<(() => Promise<void>) | void> {
    const users = await em.getRepository(User).findBy({ employeeId: subject.employeeId });
    if (!users.length) return;
    await assertAdminsRemain(
      em,
      users.map((u) => u.id),
    );
    for (const user of users) {
      await em.getRepository(User).delete({ id: user.id });
      await recordAudit(em, {
        action: 'delete',
        resource: 'users',
        event: 'user.deleted',
        resourceId: user.id,
        employee: subject.employeeId,
        before: userAuditView(user, []),
      });
    }
    return async () => {
      for (const user of users) await this.tokens.forgetUser(user.id);
    };
  }
}

import { EntityManager } from 'typeorm';
import { DomainException } from '../common/errors/domain.exception';
import { User } from './entities/user.entity';

/**
 * Refuses (409 LAST_ADMIN) a change that removes every active Admin: `leaving` are the users being
 * demoted, deactivated or deleted. Runs inside the change's transaction; on MySQL/MariaDB it locks
 * the active Admins' rows, so two concurrent demotions are decided one after the other.
 */
export async function assertAdminsRemain(em: EntityManager, leaving: readonly number[]): Promise<void> {
  const admins = await em.getRepository(User).find({
    select: { id: true },
    where: { userLevel: 'Admin', active: true },
    lock: em.connection.options.type === 'mysql' ? { mode: 'pessimistic_write' } : undefined,
  });
  const ids = admins.map((a) => a.id);
  if (ids.some((id) => leaving.includes(id)) && ids.every((id) => leaving.includes(id))) {
    throw new DomainException('LAST_ADMIN', 'The last active Admin cannot be demoted, deactivated or deleted');
  }
}

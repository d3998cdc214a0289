import { EntityManager, EntityTarget, FindOptionsWhere, In, ObjectLiteral } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { DomainException } from '../errors/domain.exception';

/** One action on a stateful record: the states it starts from, the state it leads to (none: a guard), and its words in a 409. */
export interface Transition<S extends string> {
  from: readonly S[];
  to: S | null;
  /** "be processed", "generate payslips": what "A Draft payroll cannot …" says. */
  verb: string;
}

/**
 * The states of one kind of record and every action on them, in one table (issue 26): each move is
 * one conditional UPDATE (`status IN from`), so of two concurrent requests one moves the record and
 * the other finds it moved; an action the state does not allow is 409 INVALID_STATE naming the
 * current state. Records keep their state in a `status` column.
 */
export class StateMachine<S extends string, A extends string> {
  constructor(
    /** "payroll": the record's name in messages. */
    readonly record: string,
    readonly transitions: Readonly<Record<A, Transition<S>>>,
  ) {}

  /** The states `action` starts from. */
  from(action: A): readonly S[] {
    return this.transitions[action].from;
  }

  allows(action: A, state: S): boolean {
    return this.transitions[action].from.includes(state);
  }

  /** Throws 409 INVALID_STATE unless `action` may start from `state`. */
  assert(action: A, state: S): void {
    if (!this.allows(action, state)) throw this.invalid(action, state);
  }

  invalid(action: A, state: S): DomainException {
    const article = /^[AEIOU]/.test(state) ? 'An' : 'A';
    return new DomainException('INVALID_STATE', `${article} ${state} ${this.record} cannot ${this.transitions[action].verb}`, [
      { field: 'status', message: state },
    ]);
  }

  /**
   * Moves the record `where` names by `action` with one conditional UPDATE, setting `set` too;
   * false when the record was not in one of the action's states (another request moved it first).
   * A `status` in `where` (the state the caller read and checked) is required as it is, so that a
   * record moved meanwhile, even to another state the action starts from, is not moved again.
   */
  async move<E extends ObjectLiteral>(
    em: EntityManager,
    target: EntityTarget<E>,
    where: FindOptionsWhere<E>,
    action: A,
    set: QueryDeepPartialEntity<E> = {},
  ): Promise<boolean> {
    const t = this.transitions[action];
    if (t.to === null) throw new Error(`${this.record} action ${action} is a guard, not a move`);
    const res = await em.update(
      target,
      { ...where, status: (where as { status?: unknown }).status ?? In([...t.from]) },
      {
        ...set,
        status: t.to,
      },
    );
    return res.affected === 1;
  }
}

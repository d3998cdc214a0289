import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Catalogue } from '../../common/declarations/catalogue';

/** What a kind of request that goes through approval chains is, as its module declares it. */
export interface ApprovalKindDeclaration {
  /** The chain's `kind` (`leave`, `time`): what policies apply to. */
  kind: string;
  /** "leave request": how notifications and tasks name one. */
  noun: string;
  /** The route of one under the API prefix (`leaves` → /leaves/{id}, its approve and reject). */
  path: string;
  /** The task source of its approval tasks (a declared one: declareTaskSources). */
  taskSource: string;
  /**
   * The policy conditions its requests can be tested by (default: `departments` alone): a policy of
   * the kind setting another is 400 naming it.
   */
  conditions?: readonly PolicyCondition[];
}

/** The conditions a policy may set (docs/api/decisions.md §21); each kind says which apply to it. */
export const POLICY_CONDITIONS = ['leave_types', 'min_days', 'min_amount', 'departments'] as const;
export type PolicyCondition = (typeof POLICY_CONDITIONS)[number];

const declared = new Catalogue<ApprovalKindDeclaration>('approval kind');

/**
 * Every declared kind's name, in name order: one array kept up to date in place (the policies'
 * `applies_to`, the inbox's filter and the document read it once the modules have loaded).
 */
export const APPROVAL_KINDS: string[] = declared.names;

/**
 * Declares a kind of request for approval chains, in its module's `<module>.approvals.ts` (issue 64):
 * approvals lists none itself.
 */
export function declareApprovalKind(declaration: ApprovalKindDeclaration): void {
  declared.declare(declaration.kind, declaration);
}

/** The declaration of `kind` (a chain of an undeclared kind is a bug). */
export function approvalKind(kind: string): ApprovalKindDeclaration {
  const d = declared.get(kind);
  if (!d) throw new Error(`approval kind ${kind} is declared by no module (declareApprovalKind)`);
  return d;
}

/** Of `ids`, the employees away (on approved leave) on `day`, with the chain's entity manager. */
export type AbsenceReader = (em: EntityManager, ids: number[], day: string) => Promise<Set<number>>;

/**
 * Who is away on a day, as the module that knows it says (leave, at start): chains pass over an
 * approver who is away. Approvals reads no other module's table for it.
 */
@Injectable()
export class ApprovalAbsences {
  private reader: AbsenceReader = async () => new Set();

  readWith(reader: AbsenceReader): void {
    this.reader = reader;
  }

  awayOn(em: EntityManager, ids: number[], day: string): Promise<Set<number>> {
    return ids.length ? this.reader(em, ids, day) : Promise.resolve(new Set());
  }
}

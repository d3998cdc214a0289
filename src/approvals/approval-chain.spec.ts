import {
  ancestry,
  ChainState,
  decide,
  Decider,
  headOf,
  openStep,
  pendingStep,
  policyFor,
  resolveRoles,
  withoutLeaver,
} from './approval-chain';
import { APPROVAL_STATES } from './approval.states';
import { ApprovalPolicy, ResolvedStep } from './entities/approval.entities';

/** The chains' rules as pure functions (docs/api/decisions.md §21), beside the code (issue 64 item 7). */
const policy = (id: number, conditions: ApprovalPolicy['conditions'], appliesTo = 'leave') =>
  ({ id, name: `P${id}`, appliesTo, conditions, steps: [], escalateAfterDays: null }) as unknown as ApprovalPolicy;
const subject = { id: 10, departmentId: 3, supervisorId: 20, approver1Id: 21, approver2Id: null, approver3Id: 10 };
const step = (approvers: number[], mode: 'any' | 'all' = 'any', admins = false): ResolvedStep => ({
  ...pendingStep({ mode, approvers, admins }),
  opened_at: '2026-03-02T09:00:00.000Z',
});
const who = (employeeId: number | null, extra: Partial<Decider> = {}): Decider => ({
  userId: 1000 + (employeeId ?? 0),
  employeeId,
  administers: false,
  admin: false,
  ...extra,
});
const chain = (steps: ResolvedStep[], extra: Partial<ChainState> = {}): ChainState => ({
  status: 'Pending',
  currentStep: 1,
  steps,
  decisions: [],
  ...extra,
});

describe('approval chains: the rules', () => {
  it('the most specific policy of the kind whose conditions all hold applies; ties go to the lowest id', () => {
    const policies = [
      policy(1, {}),
      policy(2, { min_days: 5 }),
      policy(3, { min_days: 5, departments: [1] }),
      policy(4, { leave_types: [7] }),
      policy(5, { min_days: 1 }, 'time'),
    ];
    const facts = { kind: 'leave', leaveTypeId: 7, days: 5, departments: [3, 1] };
    expect(policyFor(policies, facts)?.id).toBe(3);
    expect(policyFor(policies, { ...facts, days: 2 })?.id).toBe(4);
    expect(policyFor(policies, { ...facts, days: 2, leaveTypeId: 8 })?.id).toBe(1);
    expect(policyFor(policies, { ...facts, kind: 'time', leaveTypeId: null, days: 1 })?.id).toBe(5);
    expect(policyFor([], facts)).toBeNull();
  });

  it('min_amount: a request of at least the amount (compared exactly), none without an amount', () => {
    const policies = [policy(1, {}, 'claim'), policy(2, { min_amount: '1000.00' }, 'claim')];
    const facts = { kind: 'claim', leaveTypeId: null, days: null, departments: [] };
    expect(policyFor(policies, { ...facts, amount: '1000.00' })?.id).toBe(2);
    expect(policyFor(policies, { ...facts, amount: '999.99' })?.id).toBe(1);
    expect(policyFor(policies, { ...facts, amount: '10000.00' })?.id).toBe(2);
    expect(policyFor(policies, facts)?.id).toBe(1);
  });

  it('roles name employees, never the subject itself, each once; admins is a flag', () => {
    expect(
      resolveRoles(
        { approvers: ['supervisor', 'approver1', 'approver3', 'employee:21', 'department_head'], mode: 'all' },
        subject,
        30,
      ),
    ).toEqual({ mode: 'all', approvers: [20, 21, 30], admins: false });
    expect(resolveRoles({ approvers: ['approver2', 'admins'], mode: 'any' }, subject, null)).toEqual({
      mode: 'any',
      approvers: [],
      admins: true,
    });
  });

  it('a step opens without the away and the earlier deciders, with delegates, and goes to the Admins when nobody is left', () => {
    const at = { day: '2026-03-02', instant: '2026-03-02T09:00:00.000Z' };
    const opened = openStep(step([20, 21, 22]), 10, at, new Set([21]), new Map([[20, 23]]), new Set([22]));
    expect(opened.approvers).toEqual([23]);
    expect(opened.substitutions).toEqual([
      { approver: 20, by: 23, reason: 'delegation' },
      { approver: 21, by: null, reason: 'leave' },
      { approver: 22, by: null, reason: 'decided' },
    ]);
    expect(opened.admins).toBe(false);
    // A delegate who is the subject, and an approver away: nobody is left, the Admins decide.
    const empty = openStep(step([20, 21]), 10, at, new Set([21]), new Map([[20, 10]]), new Set());
    expect([empty.approvers, empty.admins]).toEqual([[], true]);
  });

  it('a decision: refused on a closed chain, one’s own request, twice, or by a stranger; an Admin outside the step decides it', () => {
    const open = chain([step([20])]);
    expect(decide({ ...open, status: 'Approved' }, 10, who(20), 'approve')).toEqual({ error: 'INVALID_STATE' });
    expect(decide(open, 10, who(10), 'approve')).toEqual({ error: 'OWN_REQUEST' });
    expect(decide(open, 10, who(99), 'approve')).toEqual({ error: 'NOT_AN_APPROVER' });
    const decided = {
      ...open,
      decisions: [{ step: 1, userId: 1020, employeeId: 20, decision: 'approve' as const, asAdmin: false }],
    };
    expect(decide(decided, 10, who(20), 'approve')).toEqual({ error: 'ALREADY_DECIDED' });
    expect(decide(open, 10, who(null, { userId: 1, administers: true, admin: true }), 'approve')).toMatchObject({
      record: { asAdmin: true },
      completesStep: true,
      status: 'Approved',
    });
  });

  it('a leaver: skipped when its step opens; taken out of an open step, which goes to the Admins when nobody left can complete it', () => {
    const at = { day: '2026-03-02', instant: '2026-03-02T09:00:00.000Z' };
    expect(openStep(step([20, 21]), 10, at, new Set(), new Map(), new Set(), new Set([20]))).toMatchObject({
      approvers: [21],
      admins: false,
      substitutions: [{ approver: 20, by: null, reason: 'left' }],
    });
    expect(openStep(step([20]), 10, at, new Set(), new Map(), new Set(), new Set([20]))).toMatchObject({
      approvers: [],
      admins: true,
    });
    const open = step([20, 21]);
    expect(withoutLeaver(open, 99, new Set())).toBe(open);
    expect(withoutLeaver(open, 20, new Set())).toMatchObject({ approvers: [21], admins: false });
    expect(withoutLeaver(step([20]), 20, new Set())).toMatchObject({ approvers: [], admins: true });
    // Mode all: the others approved already, so nobody left could complete it; one still to decide can.
    expect(withoutLeaver(step([20, 21], 'all'), 20, new Set([21]))).toMatchObject({ approvers: [21], admins: true });
    expect(withoutLeaver(step([20, 21], 'all'), 20, new Set())).toMatchObject({ approvers: [21], admins: false });
    // An escalated supervisor who leaves goes the same way.
    expect(withoutLeaver({ ...step([20]), escalated: [30] }, 30, new Set())).toMatchObject({ escalated: [], admins: false });
  });

  it('mode all waits for every approver; the last step approves; a rejection ends it at once', () => {
    const two = chain([step([20, 21], 'all'), step([30])]);
    const first = decide(two, 10, who(20), 'approve');
    expect(first).toMatchObject({ completesStep: false, status: 'Pending' });
    if (!('record' in first)) throw new Error(first.error);
    const second = decide({ ...two, decisions: [first.record] }, 10, who(21), 'approve');
    expect(second).toMatchObject({ completesStep: true, status: 'Pending' });
    expect(decide({ ...two, currentStep: 2 }, 10, who(30), 'approve')).toMatchObject({ completesStep: true, status: 'Approved' });
    expect(decide(two, 10, who(21), 'reject')).toMatchObject({ completesStep: true, status: 'Rejected' });
  });

  it("a department's ancestry stops at a cycle; the head is the nearest one that is not the employee", () => {
    const departments = new Map([
      [1, { parent: null, head: 40 }],
      [2, { parent: 1, head: 10 }],
      [3, { parent: 2, head: null }],
      [4, { parent: 5, head: null }],
      [5, { parent: 4, head: null }],
    ]);
    expect(ancestry(departments, 3)).toEqual([3, 2, 1]);
    expect(ancestry(departments, 4)).toEqual([4, 5]);
    expect(headOf(departments, 3, 10)).toBe(40);
    expect(headOf(departments, 3, 11)).toBe(10);
    expect(headOf(departments, null, 10)).toBeNull();
  });

  it('the state machine: Pending approves, rejects or is cancelled; nothing moves a closed chain', () => {
    expect(APPROVAL_STATES.allows('approve', 'Pending')).toBe(true);
    expect(APPROVAL_STATES.allows('advance', 'Pending')).toBe(true);
    for (const closed of ['Approved', 'Rejected', 'Cancelled'] as const)
      for (const action of ['approve', 'reject', 'cancel', 'advance'] as const)
        expect(APPROVAL_STATES.allows(action, closed)).toBe(false);
    expect(() => APPROVAL_STATES.assert('cancel', 'Approved')).toThrow('An Approved approval cannot be cancelled');
  });
});

import { applies, dueDate, isDone, pastDue, progress } from './checklist-rules';

/** The checklists' rules as pure functions (docs/api/checklists.md), beside the code. */
describe('checklist rules', () => {
  const subject = { departments: [7, 3, 1], jobTitle: 4, employmentStatus: null };

  it('a template applies by its trigger and each condition it sets; a change template by one of its fields', () => {
    expect(applies({ trigger: 'hire', conditions: {} }, 'hire', subject)).toBe(true);
    expect(applies({ trigger: 'hire', conditions: {} }, 'termination', subject)).toBe(false);
    // A parent department covers its teams.
    expect(applies({ trigger: 'hire', conditions: { departments: [3] } }, 'hire', subject)).toBe(true);
    expect(applies({ trigger: 'hire', conditions: { departments: [9] } }, 'hire', subject)).toBe(false);
    expect(applies({ trigger: 'hire', conditions: { job_titles: [4, 5] } }, 'hire', subject)).toBe(true);
    expect(applies({ trigger: 'hire', conditions: { employment_statuses: [2] } }, 'hire', subject)).toBe(false);
    const change = { trigger: 'change' as const, conditions: { fields: ['pay_grade'] } };
    expect(applies(change, 'change', subject, ['pay_grade', 'salary'])).toBe(true);
    expect(applies(change, 'change', subject, ['department'])).toBe(false);
  });

  it('due days count from the effective date; a checklist whose every item is past due does not start', () => {
    expect(dueDate('2026-03-01', { offset_days: -1 })).toBe('2026-02-28');
    const items = [{ offset_days: -5 }, { offset_days: 3 }];
    expect(pastDue('2026-03-01', items, '2026-03-04')).toBe(false);
    expect(pastDue('2026-03-01', items, '2026-03-05')).toBe(true);
  });

  it('done once every required item not cancelled is completed; without required items once none is open', () => {
    const item = (status: 'Open' | 'Completed' | 'Cancelled', required = true) => ({ status, required });
    expect(isDone([item('Completed'), item('Open', false)])).toBe(true);
    expect(isDone([item('Completed'), item('Open')])).toBe(false);
    expect(isDone([item('Completed'), item('Cancelled')])).toBe(true);
    expect(isDone([item('Open', false), item('Completed', false)])).toBe(false);
    expect(isDone([item('Cancelled', false), item('Completed', false)])).toBe(true);
    expect(isDone([item('Cancelled'), item('Cancelled', false)])).toBe(false);
    expect(progress([item('Completed'), item('Open'), item('Cancelled')])).toEqual({ completed: 1, total: 2 });
  });
});

import { EmployeeInputs, StoredArrears } from '../engine/stored-inputs';
import { Dec } from '../formula/formula';
import { alreadyPaid, changesReaching, PaidRun, stillOwed } from './arrears';

/* The arrears rules on their own (issue 64 item 7); test/payroll-arrears.e2e-spec.ts runs them through payrolls. */

const at = (day: string) => new Date(`${day}T12:00:00Z`);
const march = { id: 3, dateStart: '2026-03-01', dateEnd: '2026-03-31', processedAt: at('2026-03-31') };

/** A later run that paid `parts` as arrears of column 1 (through its arrears column 9) for employee 7. */
function later(id: number, dateStart: string, parts: Array<Pick<StoredArrears, 'payroll' | 'amount'>>): PaidRun {
  const inputs: EmployeeInputs = {
    settings: { pay_frequency: null, currency: 'EUR', deduction_group: null },
    minorUnit: 2,
    salary: {},
    fields: {},
    hooks: {
      '9': {
        value: '0',
        arrears: parts.map((p) => ({ ...p, recomputed: '0', paid: '0', already_paid: '0', changes: [] })),
      },
    },
  };
  return {
    payroll: { id, dateStart, dateEnd: `${dateStart.slice(0, 8)}28`, processedAt: at(`${dateStart.slice(0, 8)}28`) },
    columns: [
      { id: 1, calculation_hook: null, calculation_hook_args: {} },
      { id: 9, calculation_hook: 'arrears', calculation_hook_args: { column: 1 } },
    ],
    inputs: new Map([[7, inputs]]),
  };
}

describe('arrears', () => {
  it('a change reaches back into a run when effective by its end and recorded after it, unread, or cancelled after it', () => {
    const changes = [
      { id: 1, effectiveDate: '2026-03-15', recordedAt: at('2026-04-10'), cancelledAt: null }, // back-dated after: reaches
      { id: 2, effectiveDate: '2026-04-01', recordedAt: at('2026-04-10'), cancelledAt: null }, // after the period
      { id: 3, effectiveDate: '2026-02-01', recordedAt: at('2026-02-01'), cancelledAt: null }, // known when it ran
      { id: 4, effectiveDate: '2026-03-10', recordedAt: at('2026-03-01'), cancelledAt: at('2026-04-02') }, // undone after
      { id: 5, effectiveDate: '2026-03-20', recordedAt: at('2026-04-03'), cancelledAt: null }, // read by the run (a re-run)
    ];
    expect(changesReaching(march, [5], changes)).toEqual([1, 4]);
    expect(changesReaching(march, [], [])).toEqual([]);
  });

  it('counts what later runs paid for this run and column only, never what earlier or other runs paid', () => {
    const runs = [
      later(4, '2026-04-01', [{ payroll: 3, amount: '100' }]),
      later(5, '2026-05-01', [
        { payroll: 3, amount: '50.5' },
        { payroll: 2, amount: '999' },
      ]),
      later(2, '2026-02-01', [{ payroll: 3, amount: '7' }]), // before March: not a payment for it
    ];
    expect(alreadyPaid(runs, march, 7, 1).toString()).toBe('150.5');
    expect(alreadyPaid(runs, march, 7, 2).toString()).toBe('0'); // another column
    expect(alreadyPaid(runs, march, 8, 1).toString()).toBe('0'); // another employee
  });

  it('owes the recomputed cell minus what it paid and what was paid for it since, exactly', () => {
    expect(stillOwed('3400.00', '3300.00', new Dec('0')).toString()).toBe('100');
    expect(stillOwed('3400.00', '3300.00', new Dec('100')).toString()).toBe('0');
    expect(stillOwed('3300.10', '3400.00', new Dec('0')).toString()).toBe('-99.9');
    expect(stillOwed('0.3', '0.1', new Dec('0.2')).isZero()).toBe(true);
  });
});

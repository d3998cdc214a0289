import { Column, DataSource, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { IMPORT_STATUSES } from '../src/imports/entities/import.entities';
import { FINISHED, IMPORT_STATES } from '../src/imports/imports.states';
import { LEAVE_STATUSES } from '../src/leave/entities/leave.entities';
import { LEAVE_STATES } from '../src/leave/leave.states';
import { TIME_ENTRY_STATUSES } from '../src/timesheets/entities/timesheet.entities';
import { TIME_ENTRY_STATES } from '../src/timesheets/timesheets.states';

@Entity('records')
class Rec {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'varchar' }) status: string;
}

/** Leave requests and time entries on the payroll's state helper (issue 26 item 2). */
describe('leave request and time entry states', () => {
  const moves = (transitions: Record<string, { from: readonly string[]; to: string | null }>) =>
    Object.entries(transitions)
      .filter(([, t]) => t.to !== null)
      .map(([action, t]) => `${t.from.join('|')} -${action}-> ${t.to}`);

  it('are the state diagrams of docs/api/decisions.md §9, every status reached', () => {
    expect(moves(LEAVE_STATES.transitions)).toEqual([
      'Pending -approve-> Approved',
      'Pending -reject-> Rejected',
      'Pending|Approved -cancel-> Cancelled',
    ]);
    const leaveReached = new Set(['Pending', ...Object.values(LEAVE_STATES.transitions).map((t) => t.to)]);
    expect(LEAVE_STATUSES.filter((s) => !leaveReached.has(s))).toEqual([]);
    expect(moves(TIME_ENTRY_STATES.transitions)).toEqual([
      'Draft|Rejected -submit-> Submitted',
      'Submitted -approve-> Approved',
      'Submitted -reject-> Rejected',
    ]);
    const entryReached = new Set(['Draft', ...Object.values(TIME_ENTRY_STATES.transitions).map((t) => t.to)]);
    expect(TIME_ENTRY_STATUSES.filter((s) => !entryReached.has(s))).toEqual([]);
  });

  it("imports: docs/api/decisions.md §13's states, every one reached; a finished import is not committed or run again", () => {
    expect(moves(IMPORT_STATES.transitions)).toEqual([
      'Queued|Validating -validate-> Validating',
      'Queued|Importing -import-> Importing',
      'Validating -validated-> Validated',
      'Importing -complete-> Completed',
      'Queued|Validating|Importing -fail-> Failed',
      'Validated -commit-> Queued',
    ]);
    const reached = new Set(['Queued', ...Object.values(IMPORT_STATES.transitions).map((t) => t.to)]);
    expect(IMPORT_STATUSES.filter((s) => !reached.has(s))).toEqual([]);
    expect(() => IMPORT_STATES.assert('commit', 'Completed')).toThrow(
      'A Completed import cannot be committed (only a validated dry run is)',
    );
    expect(() => IMPORT_STATES.assert('remove', 'Importing')).toThrow('An Importing import cannot be deleted while its job runs');
    for (const status of FINISHED)
      expect(IMPORT_STATES.allows('import', status) || IMPORT_STATES.allows('validate', status)).toBe(false);
  });

  it('refuse with 409 INVALID_STATE naming the current state', () => {
    expect(() => LEAVE_STATES.assert('approve', 'Approved')).toThrow('An Approved leave request cannot be approved');
    expect(() => LEAVE_STATES.assert('cancel', 'Rejected')).toThrow('A Rejected leave request cannot be cancelled');
    expect(() => TIME_ENTRY_STATES.assert('change', 'Submitted')).toThrow('A Submitted time entry cannot be changed');
    const refused = TIME_ENTRY_STATES.invalid('approve', 'Draft');
    expect([refused.code, refused.details]).toEqual(['INVALID_STATE', [{ field: 'status', message: 'Draft' }]]);
  });

  it('move from the state the caller read only: a record moved meanwhile to another start state is not moved again', async () => {
    const ds = await new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [Rec],
      synchronize: true,
    }).initialize();
    try {
      const { id } = await ds.getRepository(Rec).save({ status: 'Approved' });
      // The caller read Pending; the request was approved meanwhile (cancel starts from both).
      expect(await LEAVE_STATES.move(ds.manager, Rec, { id, status: 'Pending' }, 'cancel')).toBe(false);
      expect(await LEAVE_STATES.move(ds.manager, Rec, { id, status: 'Approved' }, 'cancel')).toBe(true);
      expect(await ds.getRepository(Rec).findOneByOrFail({ id })).toMatchObject({ status: 'Cancelled' });
    } finally {
      await ds.destroy();
    }
  });
});

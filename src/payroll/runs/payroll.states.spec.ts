import { DataSource, Entity, PrimaryGeneratedColumn, Column } from 'typeorm';
import { DomainException } from '../../common/errors/domain.exception';
import { PAYROLL_STATUSES } from '../entities/payroll-run.entities';
import { PAYROLL_STATES } from './payroll.states';

@Entity('records')
class Rec {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'varchar' }) status: string;
  @Column({ type: 'integer', default: 0 }) progress: number;
}

describe('PAYROLL_STATES (issue 26)', () => {
  it('is the state diagram of docs/api/decisions.md §10: every state reached, every move from a listed state', () => {
    const moves = Object.entries(PAYROLL_STATES.transitions)
      .filter(([, t]) => t.to !== null)
      .map(([action, t]) => `${t.from.join('|')} -${action}-> ${t.to}`);
    expect(moves).toEqual([
      'Draft|Processed|Failed -process-> Processing',
      'Processing -processed-> Processed',
      'Processing -fail-> Failed',
      'Processed -generate-payslips-> Completing',
      'Completing -complete-> Completed',
      'Completing -payslips-failed-> Processed',
      'Completed -delete-payslips-> Processed',
    ]);
    const reached = new Set(['Draft', ...Object.values(PAYROLL_STATES.transitions).map((t) => t.to)]);
    expect(PAYROLL_STATUSES.filter((s) => !reached.has(s))).toEqual([]);
    expect(PAYROLL_STATES.allows('edit', 'Processed')).toBe(true);
    expect(PAYROLL_STATES.allows('edit', 'Failed')).toBe(false);
    const refused = PAYROLL_STATES.invalid('generate-payslips', 'Draft');
    expect(refused).toBeInstanceOf(DomainException);
    expect([refused.code, refused.message, refused.details]).toEqual([
      'INVALID_STATE',
      'A Draft payroll cannot generate payslips',
      [{ field: 'status', message: 'Draft' }],
    ]);
    expect(() => PAYROLL_STATES.assert('delete-payslips', 'Processed')).toThrow('A Processed payroll cannot delete payslips');
  });

  it('moves with one conditional UPDATE: of two moves from the same state one wins; a guard is not a move', async () => {
    const ds = await new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [Rec],
      synchronize: true,
    }).initialize();
    try {
      const { id } = await ds.getRepository(Rec).save({ status: 'Processed' });
      const em = ds.manager;
      const both = await Promise.all([
        PAYROLL_STATES.move(em, Rec, { id }, 'generate-payslips', { progress: 0 }),
        PAYROLL_STATES.move(em, Rec, { id }, 'generate-payslips', { progress: 0 }),
      ]);
      expect(both.sort()).toEqual([false, true]);
      expect(await ds.getRepository(Rec).findOneByOrFail({ id })).toMatchObject({ status: 'Completing' });
      expect(await PAYROLL_STATES.move(em, Rec, { id }, 'process')).toBe(false); // Completing is not a start of process
      await expect(PAYROLL_STATES.move(em, Rec, { id }, 'edit')).rejects.toThrow('payroll action edit is a guard, not a move');
    } finally {
      await ds.destroy();
    }
  });
});

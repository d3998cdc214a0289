import { Injectable } from '@nestjs/common';
import { CompanyClock } from '../../common/time/company-clock';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { recordAudit } from '../../common/audit/audit-log';
import { ReferenceCrud } from '../../common/crud/crud';
import { DomainException, ValidationException } from '../../common/errors/domain.exception';
import { PayrollTestDto, PayrollTestResultDto } from '../dto/payroll-config.dto';
import { PayrollColumn, PayrollTest } from '../entities/payroll-config.entities';
import { toColumnDto, toEngineColumn } from './payroll-columns';
import { PayrollTablesService } from './payroll-tables.service';
import { tableNamesOf } from './payroll-columns';
import { FormulaTable } from '../formula/formula';
import { payrollTestProblems, PayrollTestResult, runPayrollTests, TestColumn } from './payroll-tests';

const testColumn = (c: PayrollColumn): TestColumn => ({ ...toEngineColumn(c), hookArgs: c.calculationHookArgs });

/** 409 PAYROLL_TESTS_FAILED: each failing test's columns, expected and computed. */
function testsFailed(failed: PayrollTestResult[], accepting: boolean): DomainException {
  const details = failed.flatMap((r) =>
    r.failures.map((f) => ({
      field: `payroll-tests.${r.id}`,
      message: `${r.name}: ${f.column} expected ${f.expected}, got ${f.actual ?? 'no value (the cell fails)'}`,
    })),
  );
  const names = failed.map((r) => `"${r.name}"`).join(', ');
  return new DomainException(
    'PAYROLL_TESTS_FAILED',
    accepting
      ? `The change leaves a cell of ${names} without a value: no expectation can accept that`
      : `The change fails the payroll tests ${names}; send accept_test_changes: true to save it and accept the new amounts`,
    details.slice(0, 100),
  );
}

/**
 * Payroll tests (docs/api/decisions.md §18): pinned amounts for representative employees, run on demand and
 * before every column save.
 */
@Injectable()
export class PayrollTestsService {
  readonly tests: ReferenceCrud<PayrollTest, PayrollTestDto>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(PayrollTest) tests: Repository<PayrollTest>,
    private readonly tables: PayrollTablesService,
    private readonly clock: CompanyClock,
  ) {
    this.tests = new ReferenceCrud<PayrollTest, PayrollTestDto>({
      label: 'Payroll test',
      resource: 'payroll_config/payroll-tests',
      repo: tests,
      fields: { name: 'name', employee: 'employee', expected: 'expected' },
      check: (test) => {
        const problems = payrollTestProblems(test.employee, test.expected);
        if (problems.length) throw new ValidationException(problems);
        test.employee = {
          salary: test.employee.salary ?? {},
          hooks: test.employee.hooks ?? {},
          fields: test.employee.fields ?? {},
        };
        return Promise.resolve();
      },
    });
  }

  /** POST /payroll_config/payroll-tests/run: every payroll test against the current columns. */
  async runTests(): Promise<PayrollTestResultDto[]> {
    const [columns, tests] = await Promise.all([
      this.dataSource.getRepository(PayrollColumn).find(),
      this.dataSource.getRepository(PayrollTest).find({ order: { id: 'ASC' } }),
    ]);
    return runPayrollTests(columns.map(testColumn), tests, await this.tablesToday(columns));
  }

  /** The versions in force today of the tables these columns' scripts name. */
  private async tablesToday(columns: PayrollColumn[]): Promise<Map<string, FormulaTable>> {
    const names = tableNamesOf(columns.map(toColumnDto));
    const found = await this.tables.inForce(names, await this.clock.today());
    return new Map([...found].map(([name, t]) => [name, t.formula]));
  }

  /**
   * Runs the payroll tests against the column set a save would leave (`column` in place of its old
   * self) and against the current one. Failures the change brings refuse the save with 409
   * PAYROLL_TESTS_FAILED naming every test, its column, the amount expected and the one computed,
   * unless `accept`: then those tests expect what the columns now give, in the save's
   * transaction, each audited (a cell that fails cannot be accepted).
   */
  async check(em: EntityManager, column: PayrollColumn, accept: boolean): Promise<void> {
    const tests = await em.getRepository(PayrollTest).find({ order: { id: 'ASC' } });
    if (!tests.length) return;
    const current = await em.getRepository(PayrollColumn).find();
    const proposed = [...current.filter((c) => c.id !== column.id), { ...column, id: column.id ?? 0 }];
    // What the change breaks: a failure a test did not have before (a test failing already does not block other changes).
    const tables = await this.tablesToday(proposed);
    const had = new Set(
      runPayrollTests(current.map(testColumn), tests, tables).flatMap((r) =>
        r.failures.map((f) => `${r.id}:${f.column}:${f.actual}`),
      ),
    );
    const failed = runPayrollTests(proposed.map(testColumn), tests, tables)
      .map((r) => ({ ...r, failures: r.failures.filter((f) => !had.has(`${r.id}:${f.column}:${f.actual}`)) }))
      .filter((r) => r.failures.length);
    if (!failed.length) return;
    if (!accept || failed.some((r) => r.failures.some((f) => f.actual === null))) throw testsFailed(failed, accept);
    for (const result of failed) {
      const test = tests.find((t) => t.id === result.id) as PayrollTest;
      const before = { id: test.id, name: test.name, employee: test.employee, expected: { ...test.expected } };
      // Own properties whatever the client named its columns (a key "__proto__" included).
      test.expected = { ...test.expected, ...Object.fromEntries(result.failures.map((f) => [f.column, f.actual as string])) };
      await em.getRepository(PayrollTest).save(test);
      await recordAudit(em, {
        action: 'update',
        resource: 'payroll_config/payroll-tests',
        resourceId: test.id,
        before,
        after: { ...before, expected: test.expected },
      });
    }
  }
}

/**
 * The payroll engine in memory, run by hand: `npm run bench:payroll-engine [employees] [rounds]`.
 * 10 000 employees × 30 columns by default: salary-component sums, added/subtracted columns,
 * scripts (a progressive tax with if/min/max, ratios, employee fields) and a hook column. Prints
 * cells per second (best and median of the rounds, planning and compiling included) and the peak
 * RSS. Target (issue 10): at least 300 000 cells/s on the 2-core machine.
 *
 * Then the bounds of issue 24: the time per cell of the costliest script of each kind the formula
 * limits accept, and the time to check and render the costliest payslip templates the template
 * limits accept (scripts/worst-cases.ts). Each is the median of its repetitions.
 */
import { computePayroll, EngineColumn, EngineEmployee, explainCell, planColumns } from '../src/payroll/engine/payroll-engine';
import { compileFormula, Dec, FormulaTable } from '../src/payroll/formula/formula';
import { PAYSLIP_CONTEXT_SHAPE } from '../src/payroll/dto/payslip-context';
import { compileBoundedTemplate } from '../src/common/template/template';
import { PayrollTestCase, runPayrollTests } from '../src/payroll/config/payroll-tests';
import { benchColumns as columns } from './bench-payroll-columns';
import { WORST_VARIABLES, worstFormulas, worstScope, worstTemplates } from './worst-cases';

const EMPLOYEES = Number(process.argv[2] ?? 10_000);
const ROUNDS = Number(process.argv[3] ?? 5);

function employees(n: number): EngineEmployee[] {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    minorUnit: i % 10 === 0 ? 0 : 2,
    fields: { years_of_service: i % 30, department: (i % 17) + 1, age: 20 + (i % 45) },
    salary: new Map([
      [1, `${2500 + (i % 5000)}.${String(i % 100).padStart(2, '0')}`],
      [2, `${300 + (i % 700)}.50`],
      [3, '85.00'],
    ]),
  }));
}

function main(): void {
  const cols = columns();
  const people = employees(EMPLOYEES);
  const hooks = (column: number, employee: number) =>
    column === 4 ? String(employee % 12) : column === 5 ? String(employee % 3) : null;
  let peakRss = process.memoryUsage().rss;
  const rates: number[] = [];
  let errors = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    const { plan, errors: planErrors } = planColumns(cols);
    if (!plan) throw new Error(`plan failed: ${JSON.stringify(planErrors)}`);
    const result = computePayroll(plan, people, hooks);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    errors = result.errors.length;
    rates.push((people.length * cols.length) / seconds);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
  const sorted = [...rates].sort((a, b) => a - b);
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(
    `payroll engine: ${people.length} employees × ${cols.length} columns = ${fmt(people.length * cols.length)} cells, ${ROUNDS} rounds`,
  );
  console.log(`cells/s: best ${fmt(sorted[sorted.length - 1])}, median ${fmt(sorted[Math.floor(sorted.length / 2)])}`);
  console.log(`cell errors: ${errors}`);
  console.log(`peak RSS: ${Math.round(peakRss / 1048576)} MiB`);
  console.log(`target 300,000 cells/s: ${sorted[Math.floor(sorted.length / 2)] >= 300_000 ? 'met' : 'NOT met'}`);
  bracketVersusScript(cols, people, hooks);
  explainAndTests(cols, people, hooks);
  bounds();
}

/**
 * Issue 44: the same run with the income tax from a brackets table (bracket("income_tax", taxable))
 * instead of the nested if of the script, same amounts; cells/s of each (median of the rounds) and
 * the ratio (target ≥ 80 %).
 */
function bracketVersusScript(
  cols: EngineColumn[],
  people: EngineEmployee[],
  hooks: (column: number, employee: number) => string | null,
): void {
  const d = (v: string) => new Dec(v);
  const table: FormulaTable = {
    name: 'income_tax',
    version: '2026-01-01',
    brackets: [
      { from: d('0'), to: d('1000'), rate: d('0'), fixed: d('0') },
      { from: d('1000'), to: d('3000'), rate: d('0.14'), fixed: d('0') },
      { from: d('3000'), to: d('6000'), rate: d('0.24'), fixed: d('0') },
      { from: d('6000'), to: null, rate: d('0.42'), fixed: d('0') },
    ],
  };
  const withTable = cols.map((c) => (c.variable === 'income_tax' ? { ...c, script: 'bracket("income_tax", taxable)' } : c));
  const median = (set: EngineColumn[], tables?: Map<string, FormulaTable>) => {
    const rates: number[] = [];
    let last: ReturnType<typeof computePayroll> | null = null;
    for (let round = 0; round < ROUNDS; round++) {
      const start = process.hrtime.bigint();
      const { plan } = planColumns(set);
      plan!.tables = tables;
      last = computePayroll(plan!, people, hooks);
      rates.push((people.length * set.length) / (Number(process.hrtime.bigint() - start) / 1e9));
    }
    return { rate: [...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)], result: last! };
  };
  const script = median(cols);
  const bracketed = median(withTable, new Map([['income_tax', table]]));
  const same = script.result.rows.every((r, i) => r.values.every((v, k) => v === bracketed.result.rows[i].values[k]));
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(
    `bracket(): ${fmt(bracketed.rate)} cells/s against ${fmt(script.rate)} with the nested if ` +
      `(${Math.round((bracketed.rate / script.rate) * 100)} %, target ≥ 80 %); same amounts: ${same}`,
  );
}

/** Issue 32: explaining cells of this run (ms per cell, p50 and p99), and 500 payroll tests against its columns. */
function explainAndTests(
  cols: EngineColumn[],
  people: EngineEmployee[],
  hooks: (column: number, employee: number) => string | null,
): void {
  const { plan } = planColumns(cols);
  const times: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const employee = people[(i * 7919) % people.length];
    const column = cols[(i * 31) % cols.length].id;
    const start = process.hrtime.bigint();
    explainCell(plan!, employee, column, hooks);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  console.log(`\nexplain a cell (in memory, 2 000 cells): p50 ${times[1000].toFixed(3)} ms, p99 ${times[1980].toFixed(3)} ms`);
  const tests: PayrollTestCase[] = people.slice(0, 500).map((e, i) => ({
    id: i + 1,
    name: `test ${i + 1}`,
    employee: { salary: Object.fromEntries(e.salary), hooks: {}, fields: e.fields },
    expected: { [cols[cols.length - 1].variable]: '0', [cols[10].variable]: '0' },
  }));
  const ms = medianMs(() => runPayrollTests(cols, tests), 5);
  console.log(`500 payroll tests × ${cols.length} columns: ${ms.toFixed(1)} ms (target ≤ 1 000 ms)`);
}

/** Median milliseconds of `runs` calls of `fn`, after two warm-up calls. */
function medianMs(fn: () => unknown, runs: number): number {
  fn();
  fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

function bounds(): void {
  console.log('\nworst-case scripts under the formula limits (ms per cell, median of 30):');
  let worst = 0;
  for (const { name, script } of worstFormulas()) {
    const { formula } = compileFormula(script, new Set(WORST_VARIABLES.keys()));
    if (!formula) throw new Error(`${name}: refused by the limits`);
    const ms = medianMs(() => {
      try {
        formula.evaluate(worstScope);
      } catch {
        // an error ("out of range") is an outcome like a value
      }
    }, 30);
    worst = Math.max(worst, ms);
    console.log(`  ${name.padEnd(32)} ${String(script.length).padStart(6)} chars  ${ms.toFixed(3)} ms`);
  }
  console.log(`worst per cell: ${worst.toFixed(3)} ms`);
  console.log('\nworst-case payslip templates under the template limits (ms, median of 15):');
  let worstRender = 0;
  for (const { name, content, context } of worstTemplates()) {
    const check = medianMs(() => compileBoundedTemplate(content, PAYSLIP_CONTEXT_SHAPE), 15);
    const render = compileBoundedTemplate(content, PAYSLIP_CONTEXT_SHAPE);
    const out = render(context).length;
    const ms = medianMs(() => render(context), 15);
    worstRender = Math.max(worstRender, ms);
    console.log(
      `  ${name.padEnd(28)} check ${check.toFixed(2)} ms, render ${ms.toFixed(2)} ms, ${out.toLocaleString('en-US')} characters`,
    );
  }
  console.log(`worst render: ${worstRender.toFixed(2)} ms`);
}

main();

/**
 * The payroll engine in memory, run by hand: `npm run bench:payroll-engine [employees] [rounds]`.
 * 10 000 employees × 30 columns by default: salary-component sums, added/subtracted columns,
 * scripts (a progressive tax with if/min/max, ratios, employee fields) and a hook column. Prints
 * cells per second (best and median of the rounds, planning and compiling included) and the peak
 * RSS. Target (issue 10): at least 300 000 cells/s on the 2-core machine.
 */
import { computePayroll, EngineEmployee, planColumns } from '../src/payroll/engine/payroll-engine';
import { benchColumns as columns } from './bench-payroll-columns';

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
}

main();

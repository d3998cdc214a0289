/**
 * The costliest payroll scripts and payslip templates the limits still accept (issue 24): each
 * shape filled up to the script's length, node and nesting limits, or up to the render's step,
 * iteration and output bounds. `bench:payroll-engine` times them; a spec checks that each is
 * accepted and runs, so that a change of the limits that lets a costlier shape through is seen.
 */
import { compileFormula, Dec, FormulaScope, MAX_SCRIPT_LENGTH } from '../src/payroll/formula/formula';
import { PayslipContextDto, SAMPLE_PAYSLIP_CONTEXT } from '../src/payroll/dto/payslip-context';
import {
  MAX_RENDER_ITERATIONS,
  MAX_RENDER_OUTPUT,
  MAX_RENDER_STEPS,
  MAX_TEMPLATE_EXPRESSIONS,
  MAX_TEMPLATE_LENGTH,
} from '../src/common/template/template';

/** Column variables the worst scripts read, with the values they have (cells are below 1e12, 2 decimals). */
export const WORST_VARIABLES = new Map([
  ['a', '1.01'],
  ['b', '999999999999.99'],
  ['c', '0.01'],
]);

export const worstScope: FormulaScope = {
  variable: (name) => new Dec(WORST_VARIABLES.get(name) ?? '0'),
  employee: () => new Dec(40),
};

/** The terms as arguments of `max`, 100 a call, nested once: as many as the limits accept. */
function filled(term: string): string {
  const known = new Set(WORST_VARIABLES.keys());
  const list = (n: number) => {
    const chunks: string[] = [];
    for (let i = 0; i < n; i += 100) chunks.push(`max(${Array.from({ length: Math.min(100, n - i) }, () => term).join(',')})`);
    return chunks.length === 1 ? chunks[0] : `max(${chunks.join(',')})`;
  };
  let lo = 1;
  let hi = MAX_SCRIPT_LENGTH;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const script = list(mid);
    if (script.length <= MAX_SCRIPT_LENGTH && compileFormula(script, known).formula) lo = mid;
    else hi = mid - 1;
  }
  return list(lo);
}

const BIG = '9.999999999999999999999999999999999999999e39';
const TINY = '1.000000000000000000000000000000000000001e-40';

/** One script per costly operation, each as long as the limits allow. */
export function worstFormulas(): Array<{ name: string; script: string }> {
  return [
    ['power of a column', 'a^999'],
    ['power of a 40-digit literal', '1.000000000000000000000000000000000000001^-999'],
    ['remainder, largest by smallest', `${BIG}%${TINY}`],
    ['remainder, short literals', '9e39%1e-40'],
    ['division of columns', 'b/c'],
    ['rounding a division', 'round(b/3,10)'],
    ['40-digit products', '9.999999999999999999999999999999999999999e19*9.999999999999999999999999999999999999999e19'],
    ['conditionals', 'if(b>c,b,c)'],
    ['sums of columns', 'b+c'],
  ].map(([name, term]) => ({ name, script: filled(term) }));
}

/** A payslip context of `columns` columns whose names and values are `name` and `value`. */
export function worstContext(columns: number, name: string, value: string): PayslipContextDto {
  return { ...SAMPLE_PAYSLIP_CONTEXT, columns: Array.from({ length: columns }, () => ({ name, value })) };
}

/** Templates at the render bounds, each with the context that takes it there. */
export function worstTemplates(): Array<{ name: string; content: string; context: PayslipContextDto }> {
  // 99 + 99 × 99 iterations (under the iteration bound), each printing 9 values of 10
  // characters: steps and output just under their bounds.
  const perIteration = Math.floor(MAX_RENDER_STEPS / MAX_RENDER_ITERATIONS) - 1;
  const steps = `{{#each columns}}{{#each @root.columns}}${'{{name}}'.repeat(perIteration)}{{/each}}{{/each}}`;
  // Every character escaped: '<' becomes 4; 2 500 values of 99 '<' → 990 000 characters.
  const escaped = `{{#each columns}}{{value}}{{/each}}`;
  // The longest template text, repeated up to the output bound.
  const text = 'x'.repeat(MAX_TEMPLATE_LENGTH - 40);
  const copies = Math.floor(MAX_RENDER_OUTPUT / text.length);
  const repeated = `{{#each columns}}${text}{{/each}}`;
  // A template as long as allowed, all values: the parse and the check at save time.
  const parsed =
    '{{employee.name}}'.repeat(MAX_TEMPLATE_EXPRESSIONS) + 'x'.repeat(MAX_TEMPLATE_LENGTH - 17 * MAX_TEMPLATE_EXPRESSIONS);
  return [
    { name: 'steps and iterations', content: steps, context: worstContext(99, 'ten chars.', '1.00') },
    { name: 'escaping', content: escaped, context: worstContext(2_500, 'n', '<'.repeat(99)) },
    { name: 'long text repeated', content: repeated, context: worstContext(copies, 'n', '1') },
    { name: 'longest template of values', content: parsed, context: worstContext(1, 'n', '1') },
  ];
}

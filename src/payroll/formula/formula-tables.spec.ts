import { compileFormula, Dec, FormulaScope, FormulaTable } from './formula';

const d = (v: string) => new Dec(v);
/** Three brackets: 0 to 10 000 untaxed, 10 000 to 20 000 at 20 %, above at 40 % with a fixed 50 (issue 44's acceptance). */
const INCOME_TAX: FormulaTable = {
  name: 'income_tax',
  version: '2026-01-01',
  brackets: [
    { from: d('0'), to: d('10000'), rate: d('0'), fixed: d('0') },
    { from: d('10000'), to: d('20000'), rate: d('0.2'), fixed: d('0') },
    { from: d('20000'), to: null, rate: d('0.4'), fixed: d('50') },
  ],
};
const GRADES: FormulaTable = {
  name: 'grade_bonus',
  version: '2025-07-01',
  lookup: new Map([
    ['1', d('100')],
    ['2', d('250.50')],
    ['senior', d('400')],
  ]),
};

const scope = (vars: Record<string, string>, tables: FormulaTable[] = [INCOME_TAX, GRADES]): FormulaScope => ({
  variable: (name) => d(vars[name]),
  employee: () => d('2'),
  table: (name) => tables.find((t) => t.name === name),
});
const run = (script: string, vars: Record<string, string> = {}, tables?: FormulaTable[]) => {
  const { formula, errors } = compileFormula(script);
  if (!formula) throw new Error(JSON.stringify(errors));
  return formula.evaluate(scope(vars, tables)).toString();
};

describe('payroll tables in formulas (issue 44)', () => {
  it('bracket(): marginal tax at and around every boundary, by hand; fixed of the bracket x falls in', () => {
    const cases: Array<[string, string]> = [
      ['0', '0'],
      ['9999.99', '0'],
      ['10000', '0'], // the first bracket's top: untaxed
      ['10000.01', '0.002'], // the second bracket starts above 10 000
      ['15000', '1000'],
      ['19999.99', '1999.998'],
      ['20000', '2000'], // 10 000 × 20 %, still the second bracket
      ['20000.01', '2050.004'], // 2 000 + 0.01 × 40 % + the third bracket's fixed 50
      ['50000', '14050'], // 2 000 + 30 000 × 40 % + 50
    ];
    for (const [x, tax] of cases) expect([x, run('bracket("income_tax", gross)', { gross: x })]).toEqual([x, tax]);
  });

  it('band() is the rate of the bracket x falls in; lookup() finds a key given as a number or a text', () => {
    expect(run('band("income_tax", 10000)')).toBe('0');
    expect(run('band("income_tax", 10000.01)')).toBe('0.2');
    expect(run('band("income_tax", 20000.01)')).toBe('0.4');
    expect(run('lookup("grade_bonus", employee.pay_grade)')).toBe('250.5');
    expect(run('lookup("grade_bonus", "senior") + 1')).toBe('401');
    expect(run('round(bracket("income_tax", gross) / 12, 2)', { gross: '31000' })).toBe('537.5');
  });

  it('lists the tables a script reads, and refuses a table name that is not a text literal at compile time', () => {
    expect(compileFormula('bracket("income_tax", a) + lookup("grade_bonus", 1)').formula?.tables.sort()).toEqual([
      'grade_bonus',
      'income_tax',
    ]);
    for (const bad of ['bracket(income_tax, 1)', 'bracket("income_tax")', 'lookup(1, 2)', 'band("a", 1, 2)', '"text" + 1']) {
      expect([bad, compileFormula(bad).formula]).toEqual([bad, null]);
    }
  });

  it('an unknown table, a missing key, a value outside the brackets or the wrong kind are errors naming the table', () => {
    const fails = (script: string, vars: Record<string, string> = {}) => {
      try {
        run(script, vars);
        return null;
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(fails('bracket("nope", 1)')).toBe('no payroll table "nope" is in force');
    expect(fails('lookup("grade_bonus", 3)')).toBe('table "grade_bonus" (version 2025-07-01) has no key "3"');
    expect(fails('bracket("income_tax", -1)')).toBe('-1 is outside the brackets of table "income_tax" (version 2026-01-01)');
    expect(fails('lookup("income_tax", 1)')).toBe('table "income_tax" is not a lookup table');
    expect(fails('bracket("grade_bonus", 1)')).toBe('table "grade_bonus" is not a brackets table');
  });
});

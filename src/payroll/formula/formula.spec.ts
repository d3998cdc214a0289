import { compileFormula, Dec, FormulaScope, MAX_SCRIPT_LENGTH } from './formula';

const scope = (vars: Record<string, string> = {}, employee: Record<string, number> = {}): FormulaScope => ({
  variable: (name) => new Dec(vars[name]),
  employee: (field) => new Dec(employee[field]),
});

const evaluate = (script: string, vars: Record<string, string> = {}, employee: Record<string, number> = {}) => {
  const { formula, errors } = compileFormula(script);
  expect(errors).toEqual([]);
  const value = formula!.evaluate(scope(vars, employee));
  return typeof value === 'boolean' ? value : value.toString();
};

describe('formula language', () => {
  it('evaluates the documented operators and functions exactly', () => {
    expect(evaluate('1 + 2 * 3 - 4 / 8')).toBe('6.5');
    expect(evaluate('2 ^ 3 ^ 2')).toBe('512'); // right-associative
    expect(evaluate('-2 ^ 2')).toBe('4');
    expect(evaluate('17 % 5 + (1 + 2) * 2')).toBe('8');
    expect(evaluate('0.1 + 0.2')).toBe('0.3');
    expect(evaluate('1 < 2 and not (3 <= 2) or false')).toBe(true);
    expect(evaluate('1 > 2 || !(2 == 2) && true')).toBe(false);
    expect(evaluate('2 != 3 ? 10 : 20')).toBe('10');
    expect(evaluate('if(basic >= 1000, basic * 0.1, 0)', { basic: '1500.50' })).toBe('150.05');
    expect(evaluate('min(3, 1, 2) + max(4, 9) + abs(-1.5) + floor(2.7) + ceil(2.1) + round(2.345, 2) + round(2.5)')).toBe(
      '21.85',
    );
    expect(evaluate('employee.years_of_service * 10', {}, { years_of_service: 3 })).toBe('30');
  });

  it('explains an evaluation: every part evaluated, innermost first, with the value evaluate() gives', () => {
    const { formula } = compileFormula(
      'if(gross <= 1000, 0, round((gross - 1000) * 0.14, 2)) + employee.years_of_service * if(not (2 > 3), 1, 0)',
    );
    const s = scope({ gross: '1500.55' }, { years_of_service: 4 });
    const { value, steps } = formula!.explain(s);
    expect(value).toEqual(formula!.evaluate(s));
    expect(steps).toEqual([
      { expression: 'gross', value: '1500.55' },
      { expression: 'gross <= 1000', value: 'false' },
      // The branch not taken (0) is a literal; the one taken is listed from the inside out.
      { expression: 'gross', value: '1500.55' },
      { expression: 'gross - 1000', value: '500.55' },
      { expression: '(gross - 1000) * 0.14', value: '70.077' },
      { expression: 'round((gross - 1000) * 0.14, 2)', value: '70.08' },
      { expression: 'if(gross <= 1000, 0, round((gross - 1000) * 0.14, 2))', value: '70.08' },
      { expression: 'employee.years_of_service', value: '4' },
      { expression: '2 > 3', value: 'false' },
      { expression: 'not (2 > 3)', value: 'true' },
      { expression: 'if(not (2 > 3), 1, 0)', value: '1' },
      { expression: 'employee.years_of_service * if(not (2 > 3), 1, 0)', value: '4' },
      {
        expression: 'if(gross <= 1000, 0, round((gross - 1000) * 0.14, 2)) + (employee.years_of_service * if(not (2 > 3), 1, 0))',
        value: '74.08',
      },
    ]);
    // Explaining twice gives the same steps, and a failure is the evaluation's own.
    expect(formula!.explain(s).steps).toHaveLength(steps.length);
    const { formula: divide } = compileFormula('1 / (gross - gross)');
    expect(() => divide!.explain(s)).toThrow('division by zero');
    expect(divide!.explain).toBeDefined();
  });

  it('reports syntax errors with line and column', () => {
    expect(compileFormula('1 +').errors).toEqual([{ message: 'Expected expression after +', line: 1, column: 4 }]);
    expect(compileFormula('a +\n  (b * ').errors[0]).toMatchObject({ line: 2 });
    expect(compileFormula('(1').errors[0].message).toMatch(/Unclosed/);
    expect(compileFormula(`${'('.repeat(70)}1${')'.repeat(70)}`).errors[0]).toEqual({
      message: 'nested deeper than 64 levels',
      line: 1,
      column: 65,
    });
    // Prefix operators in a row nest like brackets: counted before the parser recurses into them.
    for (const chain of [
      '-'.repeat(9000) + '1',
      '!'.repeat(9000) + '1',
      'not '.repeat(2000) + '1',
      `1 + ${'- + '.repeat(40)}1`,
    ]) {
      expect(compileFormula(chain).errors).toEqual([
        { message: 'nested deeper than 64 levels', line: 1, column: expect.any(Number) },
      ]);
    }
    expect(compileFormula(`${'-'.repeat(30)}(${'-'.repeat(30)}(1))`).errors).toEqual([]);
    expect(compileFormula(`${'-'.repeat(40)}(${'-'.repeat(30)}(1))`).errors[0].message).toBe('nested deeper than 64 levels');
    expect(compileFormula('not not (1 > 2) and -1 < - -2 or 1e-3 - -2e+5 > 0').errors).toEqual([]);
    expect(
      compileFormula(`max(${Array.from({ length: 100 }, () => 'max(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1)').join(',')})`)
        .errors[0].message,
    ).toMatch(/more than 2000/);
  });

  it('reports unknown variables, functions and employee fields with their position', () => {
    const known = new Set(['basic', 'gross']);
    expect(compileFormula('basic +\n gross * bonus', known).errors).toEqual([
      { message: 'unknown variable bonus', line: 2, column: 10 },
    ]);
    expect(compileFormula('sqrt(basic)', known).errors[0]).toMatchObject({
      message: expect.stringMatching(/^unknown function sqrt/),
      line: 1,
      column: 1,
    });
    expect(compileFormula('employee.salary', known).errors[0].message).toMatch(/^unknown employee field salary/);
    expect(compileFormula('if(1, 2)').errors[0].message).toMatch(/if takes 3 arguments/);
    const ok = compileFormula('basic + gross + employee.age', known);
    expect(ok.errors).toEqual([]);
    expect(ok.formula!.variables.sort()).toEqual(['basic', 'gross']);
    expect(ok.formula!.employeeFields).toEqual(['age']);
  });

  describe('hostile scripts fail validation or evaluate harmlessly', () => {
    const hostile = [
      "constructor.constructor('return process')()",
      "employee.constructor.constructor('return process')()",
      'this',
      'this.constructor',
      '__proto__',
      'employee.__proto__',
      'employee["age"]',
      'globalThis.process.exit(1)',
      'process.exit(1)',
      'require("fs")',
      'a = 1',
      'x; y',
      '[1, 2]',
      '"text"',
      'null',
      'undefined',
      'Math.max(1, 2)',
      'eval("1")',
      'new Date()',
      '(() => 1)()',
      'function () {}',
      'х + 1', // Cyrillic х, a lookalike of x
      '1 ＋ 1', // full-width plus
      '1 | 2',
      '~1',
      'typeof x',
      `${'('.repeat(10_000)}1${')'.repeat(10_000)}`,
      '1 + '.repeat(300_000) + '1', // about 1 MB
    ];
    it.each(hostile.map((s) => [s.length > 60 ? `${s.slice(0, 40)}… (${s.length} chars)` : s, s]))('%s', (_label, script) => {
      const before = { exit: process.exit, keys: Object.getOwnPropertyNames(Object.prototype).length };
      const known = new Set(['x', 'basic']);
      const { formula, errors } = compileFormula(script, known);
      if (formula) {
        // Only a harmless number or boolean can come out.
        const value = formula.evaluate(scope({ x: '1', basic: '1' }));
        expect(typeof value === 'boolean' || value instanceof Dec).toBe(true);
      } else {
        expect(errors.length).toBeGreaterThan(0);
        expect(errors[0]).toEqual({ message: expect.any(String), line: expect.any(Number), column: expect.any(Number) });
      }
      expect(process.exit).toBe(before.exit);
      expect(Object.getOwnPropertyNames(Object.prototype).length).toBe(before.keys);
    });

    it('has a size limit', () => {
      expect(compileFormula('1'.repeat(MAX_SCRIPT_LENGTH + 1)).errors[0].message).toMatch(/longer than/);
    });

    it('keeps huge numbers and powers harmless', () => {
      expect(compileFormula('1e308 * 10').errors[0].message).toMatch(/the number 1e308 is out of range/);
      expect(compileFormula('1e-41 + 1').errors[0].message).toMatch(/out of range/);
      expect(evaluate('9.99e39 - 1e39')).toBe('8990000000000000000000000000000000000000');
      expect(() => compileFormula('1e39 * 10').formula!.evaluate(scope())).toThrow('the result is out of range');
      expect(() => compileFormula('(1e39 * 10) - (1e39 * 10)').formula!.evaluate(scope())).toThrow('the result is out of range');
      expect(evaluate('1e-40 / 10')).toBe('0'); // below the range: 0
      const { formula } = compileFormula('2 ^ 100000');
      expect(() => formula!.evaluate(scope())).toThrow(/exponent/);
      expect(() => compileFormula('1 / (2 - 2)').formula!.evaluate(scope())).toThrow('division by zero');
    });
  });
});

describe('the formula grammar and jsep (issue 26)', () => {
  it('is installed around each parse only: the process-wide jsep grammar is unchanged by this module', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const shared = require('jsep') as ((text: string) => { type: string; operator?: string }) & {
      binary_ops: Record<string, number>;
      unary_ops: Record<string, number>;
    };
    expect(compileFormula('2 ^ 3 and not 0', new Set()).errors).toEqual([]);
    expect(shared('a | b')).toMatchObject({ type: 'BinaryExpression', operator: '|' });
    expect(shared.binary_ops).not.toHaveProperty('and');
    expect(shared.unary_ops).not.toHaveProperty('not');
    expect(shared.binary_ops['^']).toBe(4); // bitwise xor, as jsep ships it
    expect(compileFormula('a | b', new Set(['a', 'b'])).errors).toEqual([expect.objectContaining({ line: 1 })]);
  });
});

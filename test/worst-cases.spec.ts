import { compileFormula, FormulaRuntimeError, MAX_SCRIPT_LENGTH } from '../src/payroll/formula/formula';
import { PAYSLIP_CONTEXT_SHAPE } from '../src/payroll/dto/payslip-context';
import { compileBoundedTemplate, MAX_RENDER_OUTPUT } from '../src/common/template/template';
import { WORST_VARIABLES, worstFormulas, worstScope, worstTemplates } from '../scripts/worst-cases';

/**
 * The shapes `bench:payroll-engine` times (issue 24) are what the limits still accept, each filled
 * to them: the figures it prints are the worst a client can cause. Times are the bench's, not asserted here.
 */
describe('worst cases under the formula and template limits', () => {
  it('every worst script is accepted, near the length or node limit, and evaluates to a value or a formula error', () => {
    const scripts = worstFormulas();
    expect(scripts.length).toBeGreaterThanOrEqual(9);
    for (const { name, script } of scripts) {
      const { formula, errors } = compileFormula(script, new Set(WORST_VARIABLES.keys()));
      expect({ name, errors }).toEqual({ name, errors: [] });
      // One more term would not fit: the shape is as large as the limits allow.
      expect({ name, refused: compileFormula(`${script}+${script}`, new Set(WORST_VARIABLES.keys())).formula }).toEqual({
        name,
        refused: null,
      });
      expect(script.length).toBeLessThanOrEqual(MAX_SCRIPT_LENGTH);
      try {
        formula!.evaluate(worstScope);
      } catch (err) {
        expect(err).toBeInstanceOf(FormulaRuntimeError);
      }
    }
  });

  it('every worst template is accepted and renders within the bounds', () => {
    for (const { name, content, context } of worstTemplates()) {
      const html = compileBoundedTemplate(content, PAYSLIP_CONTEXT_SHAPE)(context);
      expect({ name, within: html.length <= MAX_RENDER_OUTPUT, large: html.length > 80_000 }).toEqual({
        name,
        within: true,
        large: true,
      });
    }
  });
});

import Handlebars from 'handlebars';
import {
  checkTemplate,
  compileBoundedTemplate,
  MAX_RENDER_ITERATIONS,
  MAX_RENDER_OUTPUT,
  MAX_RENDER_STEPS,
  MAX_TEMPLATE_EXPRESSIONS,
  TemplateRenderError,
  TemplateSyntaxError,
} from './template';

const context = {
  employee: { id: 7, employee_id: 'E<7>', name: `O'Brien & "Sons" = \`x\`` },
  payroll: { id: 3, name: 'March', date_start: '2026-03-01', date_end: '2026-03-31' },
  company: { name: 'ACME', logo: null },
  columns: [
    { name: 'Gross', value: '5000.00' },
    { name: 'Tax', value: null },
    { name: 'Net', value: '0' },
  ],
  empty: [],
  zero: 0,
  flag: false,
};

describe('payslip templates', () => {
  it('renders the documented language exactly as Handlebars does', () => {
    const templates = [
      '<h1>{{company.name}}</h1><p>{{employee.name}} ({{employee.employee_id}})</p>',
      '{{#each columns}}<tr><td>{{name}}</td><td>{{value}}</td></tr>{{/each}}',
      '{{#each columns}}{{@index}}/{{@first}}/{{@last}}:{{this.name}}={{../payroll.name}}|{{@root.company.name}};{{/each}}',
      '{{#each employee}}{{@key}}={{this}},{{/each}}',
      '{{#each empty}}x{{else}}none{{/each}}{{#each zero}}x{{else}}not a list{{/each}}',
      '{{#if zero}}a{{else}}b{{/if}}{{#if flag}}c{{else if columns}}d{{/if}}{{#unless empty}}e{{/unless}}{{#if columns.length}}f{{/if}}',
      '{{flag}}{{zero}}{{missing}}{{missing.deep.path}}{{constructor}}{{employee.__proto__}}{{columns.[0].name}}',
      '{{! a comment }}{{!-- another --}}\n  {{#each columns}}\n    {{name}}\n  {{/each}}\n',
    ];
    for (const t of templates) {
      const expected = Handlebars.compile(t)(context);
      expect({ t, out: compileBoundedTemplate(t)(context) }).toEqual({ t, out: expected });
    }
    // One difference: Handlebars does not push a context that equals the one above it, so there
    // `../` skips a level when a nested #each walks the same list; here every #each item is a level.
    expect(
      compileBoundedTemplate('{{#each columns}}{{#each @root.columns}}{{../name}}-{{name}} {{/each}}{{/each}}')(context),
    ).toBe('Gross-Gross Gross-Tax Gross-Net Tax-Gross Tax-Tax Tax-Net Net-Gross Net-Tax Net-Net ');
  });

  it('refuses everything outside the language with its position', () => {
    const cases: Array<[string, RegExp, number, number]> = [
      ['ab\n  {{> partial}}', /partials/, 2, 3],
      ['{{#*inline "x"}}y{{/inline}}', /inline partials/, 1, 1],
      ['{{*decorator}}', /decorators/, 1, 1],
      ['{{{raw}}}', /escaped/, 1, 1],
      ['{{&raw}}', /escaped/, 1, 1],
      // Issue 41, item 10: active and embedded content.
      ['<p>x</p>\n  <iframe src="data:text/html,x"></iframe>', /<iframe> is not allowed/, 2, 3],
      ['<object data="file:///etc/hostname"></object>', /<object> is not allowed/, 1, 1],
      ['<EMBED src="x">', /<embed> is not allowed/, 1, 1],
      ['<script>1</script>', /<script> is not allowed/, 1, 1],
      ['<form><input></form>', /<form> is not allowed/, 1, 1],
      ['{{lookup a "b"}}', /helpers/, 1, 1],
      ['{{a b=1}}', /helpers/, 1, 1],
      ['{{#if (lookup a "b")}}x{{/if}}', /only paths/, 1, 1],
      ['{{#if "text"}}x{{/if}}', /only paths/, 1, 1],
      ['{{"literal"}}', /only paths/, 1, 1],
      ['{{#with a}}x{{/with}}', /not a block/, 1, 1],
      ['{{#columns}}x{{/columns}}', /not a block/, 1, 1],
      ['{{#each a key=1}}x{{/each}}', /no options/, 1, 1],
      ['{{#each columns}}{{/if}}', /doesn't match/, 1, 1],
      ['{{#if a}}{{#if a}}{{#if a}}{{#if a}}{{#if a}}x{{/if}}{{/if}}{{/if}}{{/if}}{{/if}}', /nested deeper than 4/, 1, 37],
      ['{{a}}'.repeat(MAX_TEMPLATE_EXPRESSIONS + 1), /more than 2000/, 1, 5 * MAX_TEMPLATE_EXPRESSIONS + 1],
    ];
    for (const [content, reason, line, column] of cases) {
      let error: unknown;
      try {
        checkTemplate(content);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(TemplateSyntaxError);
      const e = error as TemplateSyntaxError;
      expect({ content: content.slice(0, 40), reason: e.reason, line: e.line }).toEqual({
        content: content.slice(0, 40),
        reason: expect.stringMatching(reason),
        line,
      });
      if (!/match/.test(e.reason)) expect(e.column).toBe(column);
    }
    // An `else if` chain is one level, however long.
    expect(() =>
      checkTemplate(`{{#if a}}{{#if a}}{{#if a}}{{#if a}}1${'{{else if b}}2'.repeat(10)}{{/if}}{{/if}}{{/if}}{{/if}}`),
    ).not.toThrow();
  });

  it('ends a render at its first bound', () => {
    const many = (n: number) => ({ columns: Array.from({ length: n }, (_, i) => ({ name: `c${i}`, value: '1' })) });
    const bound = (content: string, data: object, reason: RegExp) =>
      expect(() => compileBoundedTemplate(content)(data)).toThrow(
        expect.objectContaining({ constructor: TemplateRenderError, message: expect.stringMatching(reason) }),
      );
    bound('{{#each columns}}x{{/each}}', many(MAX_RENDER_ITERATIONS + 1), /loops more than 10000/);
    expect(compileBoundedTemplate('{{#each columns}}x{{/each}}')(many(MAX_RENDER_ITERATIONS))).toHaveLength(
      MAX_RENDER_ITERATIONS,
    );
    bound(`{{#each columns}}${'{{name}}'.repeat(20)}{{/each}}`, many(MAX_RENDER_STEPS / 20), /more than 100000 steps/);
    bound(`{{#each columns}}${'y'.repeat(1000)}{{/each}}`, many(MAX_RENDER_OUTPUT / 1000 + 1), /longer than 1000000/);
    expect(compileBoundedTemplate(`{{#each columns}}${'y'.repeat(1000)}{{/each}}`)(many(MAX_RENDER_OUTPUT / 1000))).toHaveLength(
      MAX_RENDER_OUTPUT,
    );
  });

  it('plain mode (an e-mail subject or text part) writes values as they are, with the same refusals and bounds', () => {
    const many = (n: number) => ({ columns: Array.from({ length: n }, (_, k) => ({ name: `c${k}`, value: '1' })) });
    const data = { name: 'Smith & <Sons> "Ltd"' };
    expect(compileBoundedTemplate('To {{name}}')(data)).toBe('To Smith &amp; &lt;Sons&gt; &quot;Ltd&quot;');
    expect(compileBoundedTemplate('To {{name}}', undefined, { plain: true })(data)).toBe('To Smith & <Sons> "Ltd"');
    expect(() => compileBoundedTemplate('{{{name}}}', undefined, { plain: true })).toThrow(TemplateSyntaxError);
    expect(() =>
      compileBoundedTemplate(`{{#each columns}}${'y'.repeat(1000)}{{/each}}`, undefined, { plain: true })(
        many(MAX_RENDER_OUTPUT / 1000 + 1),
      ),
    ).toThrow(TemplateRenderError);
  });
});

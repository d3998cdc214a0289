import { activeContent } from '../pdf/active-content';
import Handlebars from 'handlebars';

/**
 * The templates an Admin writes (payslips, docs/api/decisions.md §10; notification and payslip e-mails, §16): the
 * documented language only, rendered with bounded work. Its owner gives the shape of the data.
 *
 * Handlebars parses the text (its grammar, its error positions); the AST is then checked against
 * the language a template may use and rendered by the small interpreter below, never by
 * Handlebars' runtime. Handlebars' runtime runs partials, inline partials and decorators even with
 * `knownHelpersOnly`, and a render is one synchronous call on the event loop that nothing can stop:
 * a 1 KB template of chained partials rendered for seconds and produced 64 MB. Here every render
 * counts its steps, its loop iterations and its output, and stops with a TemplateRenderError at
 * the first limit it reaches.
 *
 * The language: text; `{{path}}` (escaped: `& < > " ' \` =`), `this`, `../path`, `@index`,
 * `@first`, `@last`, `@key`, `@root.path`; `{{!comments}}`; `{{#each path}}`, `{{#if path}}` and
 * `{{#unless path}}` blocks with an optional `{{else}}` (`{{else if path}}` chains), nested at most
 * MAX_BLOCK_DEPTH deep. Refused when saved or previewed (400 with the line and column): partials
 * and inline partials, decorators, triple-stash and `{{& }}` (values are always escaped), helpers
 * or parameters of any other kind, hashes, block parameters, sub-expressions, literals. Given the
 * shape of the data it renders (a TemplateShape), a template may name only what the shape holds:
 * anything else, and a value that is an object or a list (it would print nothing), is refused with
 * its position, so a misspelt `{{employee.frist_name}}` is an error when saved, not a blank payslip.
 */

export const MAX_TEMPLATE_LENGTH = 100_000;
/** `{{…}}` expressions of one template, counted before parsing (Handlebars parses 100 000 a second). */
export const MAX_TEMPLATE_EXPRESSIONS = 2_000;
/** Blocks (`each`, `if`, `unless`) inside one another, the outermost counting as 1. */
export const MAX_BLOCK_DEPTH = 4;
/** Characters one render may produce (a payslip of 200 columns is about 20 000). */
export const MAX_RENDER_OUTPUT = 1_000_000;
/** `each` iterations of one render, over all its loops. */
export const MAX_RENDER_ITERATIONS = 10_000;
/** Statements one render may run (a text, a value, a block each count 1, in every iteration). */
export const MAX_RENDER_STEPS = 100_000;

const BLOCK_HELPERS = new Set(['each', 'if', 'unless']);

/** A template that is not in the template language, with its 1-based position. */
export class TemplateSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} (line ${line}, column ${column})`);
  }
}

/** A render that went past one of its bounds. */
export class TemplateRenderError extends Error {}

type Node = hbs.AST.Node;
type Program = hbs.AST.Program;
type Statement = hbs.AST.Statement;
type PathExpression = hbs.AST.PathExpression;

interface Checked {
  body: Statement[];
}

/** What a template may name: a printable value, an object's fields, or a list's items. */
export type TemplateShape =
  'value' | { readonly fields: Readonly<Record<string, TemplateShape>> } | { readonly items: TemplateShape };

/** The shape of a sample of the data (every list with one item at least): what a template may name. */
export function shapeOf(sample: unknown): TemplateShape {
  if (Array.isArray(sample)) {
    if (!sample.length) throw new Error('a sample list needs an item to give its shape');
    return { items: shapeOf(sample[0]) };
  }
  if (sample !== null && typeof sample === 'object')
    return { fields: Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, shapeOf(v)])) };
  return 'value';
}

const at = (node: Node, reason: string): TemplateSyntaxError =>
  new TemplateSyntaxError(reason, node.loc?.start.line ?? 1, (node.loc?.start.column ?? 0) + 1);

/** Parses and checks a template, and with a shape the names it uses; throws TemplateSyntaxError. */
export function checkTemplate(content: string, shape?: TemplateShape): Checked {
  if (content.length > MAX_TEMPLATE_LENGTH) throw new TemplateSyntaxError(`longer than ${MAX_TEMPLATE_LENGTH} characters`, 1, 1);
  for (let i = content.indexOf('{{'), n = 1; i !== -1; i = content.indexOf('{{', i + 2), n++) {
    if (n > MAX_TEMPLATE_EXPRESSIONS) {
      const { line, column } = positionOf(content, i);
      throw new TemplateSyntaxError(`more than ${MAX_TEMPLATE_EXPRESSIONS} {{…}} expressions`, line, column);
    }
  }
  const active = activeContent(content);
  if (active) {
    const { line, column } = positionOf(content, active.index);
    throw new TemplateSyntaxError(
      `<${active.tag}> is not allowed: templates hold no scripts, frames, embedded objects or forms`,
      line,
      column,
    );
  }
  let program: Program;
  try {
    program = Handlebars.parse(content);
  } catch (err) {
    const e = err as Error & { lineNumber?: number; column?: number };
    const line = e.lineNumber ?? Number(/on line (\d+)/.exec(e.message)?.[1] ?? 1);
    const reason = e.message.split('\n')[0].replace(/ - \d+:\d+$/, '');
    throw new TemplateSyntaxError(reason, line, (e.column ?? 0) + 1);
  }
  checkProgram(program, 0);
  if (shape) checkNames(program.body, { contexts: [shape], root: shape, inEach: false });
  return { body: program.body };
}

function positionOf(text: string, index: number): { line: number; column: number } {
  const lines = text.slice(0, index).split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

function checkProgram(program: Program | undefined, depth: number): void {
  if (!program) return;
  if (program.blockParams?.length) throw at(program, 'block parameters (as |x|) are not part of the template language');
  for (const node of program.body) checkStatement(node, depth);
}

function checkStatement(node: Statement, depth: number): void {
  switch (node.type) {
    case 'ContentStatement':
    case 'CommentStatement':
      return;
    case 'MustacheStatement': {
      const m = node as hbs.AST.MustacheStatement;
      if (!m.escaped) throw at(node, 'triple braces and {{& }} are not allowed: values are always escaped');
      if (m.params.length || m.hash)
        throw at(node, 'helpers and parameters are not part of the template language: write {{path}}');
      checkPath(m.path, node);
      return;
    }
    case 'BlockStatement': {
      const b = node as hbs.AST.BlockStatement;
      const name = b.path.type === 'PathExpression' ? b.path.original : '';
      if (!BLOCK_HELPERS.has(name) || b.path.data || b.path.depth)
        throw at(node, `{{#${name || '…'}}} is not a block of the template language: use #each, #if or #unless`);
      if (b.params.length !== 1) throw at(node, `{{#${name}}} takes exactly one value: {{#${name} path}}`);
      if (b.hash) throw at(node, `{{#${name}}} takes no options`);
      checkPath(b.params[0], node);
      if (depth + 1 > MAX_BLOCK_DEPTH) throw at(node, `blocks are nested deeper than ${MAX_BLOCK_DEPTH} levels`);
      checkProgram(b.program, depth + 1);
      // `{{else if x}}` is a block inside the inverse: the chain counts as one level.
      const chained = (b.inverse as (Program & { chained?: boolean }) | undefined)?.chained === true;
      checkProgram(b.inverse, chained ? depth : depth + 1);
      return;
    }
    case 'PartialStatement':
    case 'PartialBlockStatement':
      throw at(node, 'partials ({{> name}}) are not part of the template language');
    case 'DecoratorBlock':
      throw at(node, 'inline partials and decorators ({{#* }}) are not part of the template language');
    case 'Decorator':
      throw at(node, 'decorators ({{* }}) are not part of the template language');
    default:
      throw at(node, `${node.type} is not part of the template language`);
  }
}

function checkPath(expr: hbs.AST.Expression, node: Node): void {
  if (expr.type !== 'PathExpression') throw at(node, 'only paths may be used here (employee.name, columns, @index)');
}

/** What the names of a template stand for where they are: the context stack, as the renderer keeps it. */
interface Scope {
  contexts: TemplateShape[];
  root: TemplateShape;
  /** Inside #each: @index, @first, @last and @key are defined. */
  inEach: boolean;
}

const LOOP_DATA = new Set(['index', 'first', 'last', 'key']);

function describe(shape: TemplateShape): string {
  if (shape === 'value') return 'a value';
  return 'items' in shape ? 'a list' : `an object (${Object.keys(shape.fields).join(', ')})`;
}

interface Problem {
  problem: string;
}

const isProblem = (s: TemplateShape | Problem): s is Problem => s !== 'value' && 'problem' in s;

/** The shape a path names, or why it names nothing; mirrors resolve() below. */
function shapeAt(path: PathExpression, scope: Scope): TemplateShape | Problem {
  let parts = path.parts;
  let shape: TemplateShape | undefined;
  let where: string;
  if (path.data) {
    const [head, ...rest] = parts;
    if (LOOP_DATA.has(head)) {
      if (!scope.inEach) return { problem: `@${head} is defined only inside {{#each}}` };
      return rest.length ? { problem: `@${head} is a value and has no fields` } : 'value';
    }
    if (head !== 'root') return { problem: `@${head} is not defined (use @root, @index, @first, @last or @key)` };
    shape = scope.root;
    parts = rest;
    where = '@root';
  } else {
    shape = scope.contexts[scope.contexts.length - 1 - path.depth];
    if (!shape) return { problem: `${path.original} goes out further (../) than the blocks it is in` };
    where = path.depth ? '../'.repeat(path.depth).slice(0, -1) : 'this';
  }
  for (const part of parts) {
    const next: TemplateShape | undefined =
      shape === 'value'
        ? undefined
        : 'items' in shape
          ? /^\d+$/.test(part)
            ? shape.items
            : part === 'length'
              ? 'value'
              : undefined
          : Object.hasOwn(shape.fields, part)
            ? shape.fields[part]
            : undefined;
    if (!next) {
      const has =
        shape !== 'value' && !('items' in shape)
          ? `: ${where} has ${Object.keys(shape.fields).join(', ')}`
          : `: ${where} is ${describe(shape)}`;
      return { problem: `${path.original} is not in the payslip data${has}` };
    }
    shape = next;
    where = where === 'this' ? part : `${where}.${part}`;
  }
  return shape;
}

function checkNames(body: Statement[], scope: Scope): void {
  for (const node of body) {
    if (node.type === 'MustacheStatement') {
      const path = (node as hbs.AST.MustacheStatement).path as PathExpression;
      const shape = shapeAt(path, scope);
      if (isProblem(shape)) throw at(node, shape.problem);
      if (shape !== 'value') throw at(node, `${path.original} is ${describe(shape)} and prints nothing: name one of its values`);
    } else if (node.type === 'BlockStatement') {
      const b = node as hbs.AST.BlockStatement;
      const path = b.params[0] as PathExpression;
      const shape = shapeAt(path, scope);
      if (isProblem(shape)) throw at(node, shape.problem);
      if (b.path.original === 'each') {
        if (shape === 'value')
          throw at(node, `{{#each ${path.original}}} needs a list or an object: ${path.original} is a value`);
        const item = 'items' in shape ? shape.items : alike(Object.values(shape.fields));
        if (!item) throw at(node, `{{#each ${path.original}}}: its fields are not alike (name them one by one)`);
        checkNames(b.program.body, { ...scope, contexts: [...scope.contexts, item], inEach: true });
      } else {
        checkNames(b.program.body, scope);
      }
      if (b.inverse) checkNames(b.inverse.body, scope);
    }
  }
}

/** The one shape all of an object's fields have (values, most often), or undefined. */
function alike(shapes: TemplateShape[]): TemplateShape | undefined {
  return shapes.every((s) => s === 'value') ? 'value' : undefined;
}

/** What a render reads: plain data (strings, numbers, booleans, null, arrays and objects of them). */
export type TemplateData = unknown;

interface Frame {
  /** The context stack, innermost last (`../` reads one further out). */
  contexts: unknown[];
  data: Map<string, unknown>;
}

/** The counters of one render. */
class Budget {
  constructor(readonly plain = false) {}

  steps = 0;
  iterations = 0;
  output = 0;
  readonly parts: string[] = [];

  step(): void {
    if (++this.steps > MAX_RENDER_STEPS)
      throw new TemplateRenderError(`the template takes more than ${MAX_RENDER_STEPS} steps to render`);
  }

  iterate(): void {
    if (++this.iterations > MAX_RENDER_ITERATIONS)
      throw new TemplateRenderError(`the template repeats its loops more than ${MAX_RENDER_ITERATIONS} times`);
  }

  write(text: string): void {
    this.output += text.length;
    if (this.output > MAX_RENDER_OUTPUT)
      throw new TemplateRenderError(`the rendered payslip is longer than ${MAX_RENDER_OUTPUT} characters`);
    this.parts.push(text);
  }
}

const ESCAPES = new Map([
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
  ['"', '&quot;'],
  ["'", '&#x27;'],
  ['`', '&#x60;'],
  ['=', '&#x3D;'],
]);

/** Handlebars' escapeExpression for plain data: null and undefined are empty, false and 0 print. */
function escape(value: unknown, plain = false): string {
  if (value === null || value === undefined) return '';
  // Plain data holds no functions or symbols; an object or a list prints as nothing.
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint'
        ? String(value)
        : '';
  if (plain) return text;
  return /[&<>"'`=]/.test(text) ? text.replace(/[&<>"'`=]/g, (c) => ESCAPES.get(c) as string) : text;
}

/** Own properties only: `constructor`, `__proto__` and the rest of the prototype read as nothing. */
function property(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, name)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

function resolve(path: PathExpression, frame: Frame): unknown {
  let value: unknown;
  let parts = path.parts;
  if (path.data) {
    value = frame.data.get(parts[0]);
    parts = parts.slice(1);
  } else {
    value = frame.contexts[frame.contexts.length - 1 - path.depth];
  }
  for (const part of parts) value = property(value, part);
  return value;
}

/** Handlebars' `if`: false, null, undefined, '', 0, NaN and [] are false. */
function truthy(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : Boolean(value);
}

function run(body: Statement[], frame: Frame, budget: Budget): void {
  for (const node of body) {
    budget.step();
    switch (node.type) {
      case 'ContentStatement':
        budget.write((node as hbs.AST.ContentStatement).value);
        break;
      case 'MustacheStatement':
        budget.write(escape(resolve((node as hbs.AST.MustacheStatement).path as PathExpression, frame), budget.plain));
        break;
      case 'BlockStatement':
        block(node as hbs.AST.BlockStatement, frame, budget);
        break;
      default:
        break; // comments; checkTemplate let nothing else through
    }
  }
}

function block(node: hbs.AST.BlockStatement, frame: Frame, budget: Budget): void {
  const value = resolve(node.params[0] as PathExpression, frame);
  const otherwise = () => node.inverse && run(node.inverse.body, frame, budget);
  switch (node.path.original) {
    case 'if':
      return truthy(value) ? run(node.program.body, frame, budget) : otherwise();
    case 'unless':
      return truthy(value) ? otherwise() : run(node.program.body, frame, budget);
    default: {
      const entries: Array<[string | number, unknown]> = Array.isArray(value)
        ? value.map((v, i) => [i, v])
        : value !== null && typeof value === 'object'
          ? Object.keys(value).map((k) => [k, (value as Record<string, unknown>)[k]])
          : [];
      if (!entries.length) return otherwise();
      for (const [i, [key, item]] of entries.entries()) {
        budget.iterate();
        const data = new Map(frame.data);
        data
          .set('index', i)
          .set('key', key)
          .set('first', i === 0)
          .set('last', i === entries.length - 1);
        run(node.program.body, { contexts: [...frame.contexts, item], data }, budget);
      }
    }
  }
}

export type RenderTemplate = (data: TemplateData) => string;

/**
 * Checks a template once (TemplateSyntaxError), against the shape of its data when given, and
 * returns its bounded renderer (TemplateRenderError). `plain`: values are written as they are, for
 * text that is not HTML (an e-mail's subject and text part); the bounds are the same.
 */
export function compileBoundedTemplate(
  content: string,
  shape?: TemplateShape,
  options: { plain?: boolean } = {},
): RenderTemplate {
  const { body } = checkTemplate(content, shape);
  return (data) => {
    const budget = new Budget(options.plain === true);
    run(body, { contexts: [data], data: new Map([['root', data]]) }, budget);
    return budget.parts.join('');
  };
}

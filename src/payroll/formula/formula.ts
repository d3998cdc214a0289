import Decimal from 'decimal.js';
import jsep, { Expression } from 'jsep';

/**
 * The payroll formula language (docs/api/decisions.md §10): numbers, `+ - * / % ^`, parentheses, comparisons,
 * `and or not` (and `&& || !`), `if(cond, a, b)` and `cond ? a : b`, `min max round floor ceil abs`,
 * other columns by their `variable`, and `employee.<field>` for EMPLOYEE_FORMULA_FIELDS.
 *
 * jsep (a maintained expression parser) turns the text into an AST; this module walks the AST once
 * against a whitelist and compiles it into closures over exact decimals. Nothing of the script ever
 * reaches eval, Function or vm, and no node can reach a JavaScript object: there is no member access
 * but `employee.<field>`, no strings, no arrays, no assignment, no `this`.
 */

/** The engine's exact decimals and their range (common/money/dec.ts: payroll inputs load them too). */
export { Dec, MAX_EXPONENT_OF_VALUES, MIN_EXPONENT_OF_VALUES } from '../../common/money/dec';
import { Dec } from '../../common/money/dec';

export const MAX_SCRIPT_LENGTH = 10_000;
export const MAX_NESTING = 64;
/**
 * Operators, functions, values and names in one script: what one evaluation may do. A power
 * counts POWER_WEIGHT (one `^` costs as much as 25 other operations: 23 µs against under 2).
 */
export const MAX_SCRIPT_NODES = 2_000;
export const POWER_WEIGHT = 30;
/** `x ^ n`: n an integer of at most this size, so one power cannot take the process's time. */
const MAX_EXPONENT = 1000;

/** The employee fields a script may read, as numbers (`employee.years_of_service`). */
export const EMPLOYEE_FORMULA_FIELDS = [
  'id',
  'department',
  'job_title',
  'pay_grade',
  'employment_status',
  'supervisor',
  'age',
  'years_of_service',
] as const;
export type EmployeeFormulaField = (typeof EMPLOYEE_FORMULA_FIELDS)[number];

export const FORMULA_FUNCTIONS = ['if', 'min', 'max', 'round', 'floor', 'ceil', 'abs', 'bracket', 'band', 'lookup'] as const;
/** The functions that read a payroll table (docs/api/decisions.md §20): their first argument is the table's name, a string literal. */
export const TABLE_FUNCTIONS = ['bracket', 'band', 'lookup'] as const;

/** A bracket of a `brackets` table: the part of x above `from` up to `to` (null: no end) is taxed at `rate`. */
export interface TableBracket {
  from: Dec;
  to: Dec | null;
  rate: Dec;
  fixed: Dec;
}

/** A payroll table's version as a formula reads it (the one in force on the run's last day). */
export interface FormulaTable {
  name: string;
  /** The version's effective_from (explain and diffs name it). */
  version: string;
  brackets?: readonly TableBracket[];
  lookup?: ReadonlyMap<string, Dec>;
}

/*
 * jsep keeps its grammar in static tables shared by every user of the package in the process. This
 * language's grammar (the bitwise operators gone, `^` a right-associative power binding tighter than
 * `*`, `and`/`or`/`not` beside `&&`/`||`/`!`, no null or undefined) is installed around each parse
 * and the tables put back after it, so importing this module changes nothing for anyone else. A
 * parse is synchronous: nothing else runs while the tables hold this grammar.
 */
interface Grammar {
  unary_ops: Record<string, number>;
  binary_ops: Record<string, number>;
  right_associative: Set<string>;
  literals: Record<string, unknown>;
  max_unop_len: number;
  max_binop_len: number;
}

const JSEP = (jsep as unknown as { Jsep: Grammar }).Jsep;

function grammarNow(): Grammar {
  return {
    unary_ops: { ...JSEP.unary_ops },
    binary_ops: { ...JSEP.binary_ops },
    right_associative: new Set(JSEP.right_associative),
    literals: { ...JSEP.literals },
    max_unop_len: JSEP.max_unop_len,
    max_binop_len: JSEP.max_binop_len,
  };
}

/** Puts a grammar in jsep's tables, in place: plugins hold the same table objects. */
function install(g: Grammar): void {
  for (const key of ['unary_ops', 'binary_ops', 'literals'] as const) {
    const table = JSEP[key] as Record<string, unknown>;
    for (const k of Object.keys(table)) delete table[k];
    Object.assign(table, g[key]);
  }
  JSEP.right_associative.clear();
  for (const op of g.right_associative) JSEP.right_associative.add(op);
  JSEP.max_unop_len = g.max_unop_len;
  JSEP.max_binop_len = g.max_binop_len;
}

const FORMULA_GRAMMAR: Grammar = (() => {
  const before = grammarNow();
  for (const op of ['|', '&', '<<', '>>', '>>>', '===', '!==', '??', '**']) jsep.removeBinaryOp(op);
  for (const op of ['~', 'typeof', 'void', 'delete']) jsep.removeUnaryOp(op);
  jsep.addBinaryOp('^', 11, true);
  jsep.addBinaryOp('and', 2);
  jsep.addBinaryOp('or', 1);
  jsep.addUnaryOp('not');
  jsep.removeLiteral('null');
  jsep.removeLiteral('undefined');
  const grammar = grammarNow();
  install(before);
  return grammar;
})();

/** jsep with this language's grammar, the shared tables untouched after it. */
function parseFormula(script: string): Expression {
  const before = grammarNow();
  install(FORMULA_GRAMMAR);
  try {
    return jsep(script);
  } finally {
    install(before);
  }
}

export interface FormulaError {
  message: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

export type Value = Dec | boolean;

/** What a formula reads while it runs: other columns' stored values and the employee's fields. */
export interface FormulaScope {
  variable(name: string): Dec;
  employee(field: EmployeeFormulaField): Dec;
  /** A payroll table by name (undefined: none by that name in force); a scope without tables has none. */
  table?(name: string): FormulaTable | undefined;
}

/** One evaluated part of a script, as `explain` lists them: its text and its value. */
export interface FormulaStep {
  expression: string;
  value: string;
}

export interface CompiledFormula {
  /** Column variables the script reads (its dependencies). */
  variables: string[];
  employeeFields: EmployeeFormulaField[];
  /** Names of the payroll tables it reads (bracket, band, lookup). */
  tables: string[];
  evaluate(scope: FormulaScope): Value;
  /**
   * evaluate() that also lists every part of the script it evaluated (names, operations, calls;
   * not literals), innermost first, with its exact value; a branch not taken is not listed. The
   * value is evaluate()'s own: the same closures, compiled a second time with a recorder around
   * each node on first use, so evaluate() pays nothing for it.
   */
  explain(scope: FormulaScope): { value: Value; steps: FormulaStep[] };
}

/** A run-time failure of one evaluation (division by zero, a non-number where a number is needed). */
export class FormulaRuntimeError extends Error {}

type Node = (scope: FormulaScope) => Value;

const showValue = (v: Value): string => (typeof v === 'boolean' ? String(v) : v.toString());

/** An expression as text, fully bracketed where operators nest, for explain's steps. */
export function printExpression(node: Expression): string {
  const inner = (n: Expression) =>
    n.type === 'BinaryExpression' || n.type === 'ConditionalExpression' ? `(${printExpression(n)})` : printExpression(n);
  switch (node.type) {
    case 'Literal':
      return str(node.raw);
    case 'Identifier':
      return str(node.name);
    case 'MemberExpression':
      return `${printExpression(node.object as Expression)}.${printExpression(node.property as Expression)}`;
    case 'UnaryExpression': {
      const op = str(node.operator);
      return `${op}${op === 'not' ? ' ' : ''}${inner(node.argument as Expression)}`;
    }
    case 'BinaryExpression':
      return `${inner(node.left as Expression)} ${str(node.operator)} ${inner(node.right as Expression)}`;
    case 'ConditionalExpression':
      return `${inner(node.test as Expression)} ? ${inner(node.consequent as Expression)} : ${inner(node.alternate as Expression)}`;
    case 'CallExpression':
      return `${printExpression(node.callee as Expression)}(${(node.arguments as Expression[]).map(printExpression).join(', ')})`;
    default:
      return node.type;
  }
}

function position(script: string, index: number): { line: number; column: number } {
  const before = script.slice(0, Math.max(0, Math.min(index, script.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/** Where `token` first appears as a whole word (jsep keeps no node positions); the start otherwise. */
function positionOfToken(script: string, token: string): { line: number; column: number } {
  const re = new RegExp(`(^|[^A-Za-z0-9_$])${token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_$])`);
  const m = re.exec(script);
  return position(script, m ? m.index + m[1].length : 0);
}

/**
 * jsep parses brackets and prefix operators by recursion: a chain of 9 000 `-` overflowed the
 * stack before any check ran. This counts both before parsing: the open brackets, plus the prefix
 * operators in a row (`-`, `+`, `!`, `not` where an operand is expected).
 */
function nestingError(script: string): FormulaError | null {
  let depth = 0;
  let prefixes = 0;
  let expectOperand = true;
  for (let i = 0; i < script.length; i++) {
    const c = script[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    if (c === '(' || c === '[') {
      depth++;
      expectOperand = true;
    } else if (c === ')' || c === ']') {
      depth--;
      prefixes = 0;
      expectOperand = false;
    } else if (expectOperand && (c === '-' || c === '+' || c === '!' || /^not(?![A-Za-z0-9_$])/.test(script.slice(i, i + 4)))) {
      prefixes++;
      if (c === 'n') i += 2;
    } else if (/[A-Za-z0-9_$.]/.test(c)) {
      // An operand (a name or a number, with its exponent's sign); words such as `and` end it below.
      const word = /^[A-Za-z0-9_$.]+(?:[eE][+-]?\d+)?/.exec(script.slice(i))?.[0] ?? c;
      i += word.length - 1;
      const operator = word === 'and' || word === 'or';
      expectOperand = operator;
      if (!operator) prefixes = 0;
    } else {
      // A binary operator, a comma, `?` or `:`: an operand comes next.
      expectOperand = true;
    }
    if (depth + prefixes > MAX_NESTING) return { message: `nested deeper than ${MAX_NESTING} levels`, ...position(script, i) };
  }
  return null;
}

/** Every arithmetic result is checked: past the range it is an error, never Infinity or NaN. */
function inRange(value: Dec): Dec {
  if (!value.isFinite()) throw new FormulaRuntimeError('the result is out of range');
  return value;
}

/** jsep types node fields as unknown: names, operators and raw texts are strings, anything else is none. */
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const num = (v: Value, what: string): Dec => {
  if (typeof v === 'boolean') throw new FormulaRuntimeError(`${what} needs a number, got ${v}`);
  return v;
};
const truth = (v: Value): boolean => (typeof v === 'boolean' ? v : !v.isZero());

/**
 * Parses and checks a script. `knownVariables`, when given, makes an unknown column variable an
 * error (validate-script, saving a column); the compiled formula is returned only without errors.
 */
export function compileFormula(
  script: string,
  knownVariables?: ReadonlySet<string>,
): { formula: CompiledFormula | null; errors: FormulaError[] } {
  if (script.length > MAX_SCRIPT_LENGTH) {
    return { formula: null, errors: [{ message: `longer than ${MAX_SCRIPT_LENGTH} characters`, line: 1, column: 1 }] };
  }
  const nesting = nestingError(script);
  if (nesting) return { formula: null, errors: [nesting] };
  let ast: Expression;
  try {
    ast = parseFormula(script);
  } catch (err) {
    const e = err as Error & { index?: number; description?: string };
    return { formula: null, errors: [{ message: e.description ?? e.message, ...position(script, e.index ?? 0) }] };
  }
  const errors: FormulaError[] = [];
  const variables = new Set<string>();
  const employeeFields = new Set<EmployeeFormulaField>();
  const tables = new Set<string>();
  const fail = (message: string, token?: string): Node => {
    errors.push({ message, ...(token ? positionOfToken(script, token) : { line: 1, column: 1 }) });
    return () => false;
  };

  let nodes = 0;
  /** While explain() runs: where the traced build records its steps. */
  let steps: FormulaStep[] | null = null;
  let traced = false;
  const compile = (node: Expression, depth: number): Node => {
    const fn = compileNode(node, depth);
    if (!traced || node.type === 'Literal') return fn;
    const expression = printExpression(node);
    return (s) => {
      const value = fn(s);
      steps?.push({ expression, value: showValue(value) });
      return value;
    };
  };
  const compileNode = (node: Expression, depth: number): Node => {
    if (depth > MAX_NESTING) return fail(`nested deeper than ${MAX_NESTING} levels`);
    const before = nodes;
    nodes += node.type === 'BinaryExpression' && node.operator === '^' ? POWER_WEIGHT : 1;
    if (before <= MAX_SCRIPT_NODES && nodes > MAX_SCRIPT_NODES)
      return fail(`more than ${MAX_SCRIPT_NODES} operators, values and names (a power counts ${POWER_WEIGHT})`);
    switch (node.type) {
      case 'Literal': {
        const raw = str(node.raw);
        if (typeof node.value === 'boolean') {
          const b = node.value;
          return () => b;
        }
        if (typeof node.value !== 'number') return fail('only numbers are allowed as literals', raw.slice(0, 20));
        const value = new Dec(raw);
        if (!value.isFinite() || (value.isZero() && /[1-9]/.test(raw.replace(/[eE].*$/, '')))) {
          return fail(`the number ${raw.slice(0, 20)} is out of range (below 1e40 and, unless 0, from 1e-40)`, raw.slice(0, 20));
        }
        return () => value;
      }
      case 'Identifier': {
        const name = str(node.name);
        if (name === 'employee') return fail('employee needs a field: employee.<field>', name);
        if (knownVariables && !knownVariables.has(name)) return fail(`unknown variable ${name}`, name);
        variables.add(name);
        return (s) => s.variable(name);
      }
      case 'MemberExpression': {
        const object = node.object as Expression;
        const property = node.property as Expression;
        if (node.computed || object.type !== 'Identifier' || object.name !== 'employee' || property.type !== 'Identifier') {
          return fail(
            'only employee.<field> may be read from an object',
            property.type === 'Identifier' ? str(property.name) : undefined,
          );
        }
        const field = str(property.name);
        if (!(EMPLOYEE_FORMULA_FIELDS as readonly string[]).includes(field)) {
          return fail(`unknown employee field ${field}; known: ${EMPLOYEE_FORMULA_FIELDS.join(', ')}`, field);
        }
        employeeFields.add(field as EmployeeFormulaField);
        return (s) => s.employee(field as EmployeeFormulaField);
      }
      case 'UnaryExpression': {
        const arg = compile(node.argument as Expression, depth + 1);
        const op = str(node.operator);
        switch (op) {
          case '-':
            return (s) => num(arg(s), 'minus').neg();
          case '+':
            return (s) => num(arg(s), 'plus');
          case '!':
          case 'not':
            return (s) => !truth(arg(s));
          default:
            return fail(`unknown operator ${op}`, op);
        }
      }
      case 'BinaryExpression':
        return binary(
          str(node.operator),
          compile(node.left as Expression, depth + 1),
          compile(node.right as Expression, depth + 1),
        );
      case 'ConditionalExpression': {
        const test = compile(node.test as Expression, depth + 1);
        const yes = compile(node.consequent as Expression, depth + 1);
        const no = compile(node.alternate as Expression, depth + 1);
        return (s) => (truth(test(s)) ? yes(s) : no(s));
      }
      case 'CallExpression': {
        const callee = node.callee as Expression;
        const name = callee.type === 'Identifier' ? str(callee.name) : '';
        if (!(FORMULA_FUNCTIONS as readonly string[]).includes(name)) {
          return fail(
            name ? `unknown function ${name}; known: ${FORMULA_FUNCTIONS.join(', ')}` : 'only named functions may be called',
            name || undefined,
          );
        }
        if ((TABLE_FUNCTIONS as readonly string[]).includes(name)) return tableCall(name, node.arguments as Expression[], depth);
        const args = (node.arguments as Expression[]).map((a) => compile(a, depth + 1));
        return call(name, args, fail);
      }
      default:
        return fail(`${node.type.replace(/Expression$/, '').toLowerCase() || 'this'} is not part of the formula language`);
    }
  };

  /** bracket("name", x), band("name", x), lookup("name", key): the name a string literal, the key a literal or a number. */
  const tableCall = (name: string, args: Expression[], depth: number): Node => {
    const [table, arg] = args;
    if (args.length !== 2 || table.type !== 'Literal' || typeof table.value !== 'string')
      return fail(`${name} takes 2 arguments: ${name}("table name", ${name === 'lookup' ? 'key' : 'amount'})`, name);
    const tableName = table.value;
    tables.add(tableName);
    const key: Node | string =
      name === 'lookup' && arg.type === 'Literal' && typeof arg.value === 'string' ? arg.value : compile(arg, depth + 1);
    return (s) => {
      const t = s.table?.(tableName);
      if (!t) throw new FormulaRuntimeError(`no payroll table "${tableName}" is in force`);
      if (name === 'lookup') {
        if (!t.lookup) throw new FormulaRuntimeError(`table "${tableName}" is not a lookup table`);
        const k = typeof key === 'string' ? key : num(key(s), name).toString();
        const value = t.lookup.get(k);
        if (value === undefined) throw new FormulaRuntimeError(`table "${tableName}" (version ${t.version}) has no key "${k}"`);
        return value;
      }
      if (!t.brackets) throw new FormulaRuntimeError(`table "${tableName}" is not a brackets table`);
      return bracketValue(name, t, num((key as Node)(s), name));
    };
  };

  const binary = (op: string, l: Node, r: Node): Node => {
    switch (op) {
      case '+':
        return (s) => inRange(num(l(s), '+').plus(num(r(s), '+')));
      case '-':
        return (s) => inRange(num(l(s), '-').minus(num(r(s), '-')));
      case '*':
        return (s) => inRange(num(l(s), '*').times(num(r(s), '*')));
      case '/':
        return (s) => {
          const d = num(r(s), '/');
          if (d.isZero()) throw new FormulaRuntimeError('division by zero');
          return inRange(num(l(s), '/').div(d));
        };
      case '%':
        return (s) => {
          const d = num(r(s), '%');
          if (d.isZero()) throw new FormulaRuntimeError('division by zero');
          return inRange(num(l(s), '%').mod(d));
        };
      case '^':
        return (s) => {
          const e = num(r(s), '^');
          if (!e.isInteger() || e.abs().gt(MAX_EXPONENT)) {
            throw new FormulaRuntimeError(`the exponent must be a whole number from -${MAX_EXPONENT} to ${MAX_EXPONENT}`);
          }
          const b = num(l(s), '^');
          if (b.isZero() && e.isNeg()) throw new FormulaRuntimeError('division by zero');
          return inRange(b.pow(e));
        };
      case '<':
        return (s) => num(l(s), '<').lt(num(r(s), '<'));
      case '<=':
        return (s) => num(l(s), '<=').lte(num(r(s), '<='));
      case '>':
        return (s) => num(l(s), '>').gt(num(r(s), '>'));
      case '>=':
        return (s) => num(l(s), '>=').gte(num(r(s), '>='));
      case '==':
        return (s) => equal(l(s), r(s));
      case '!=':
        return (s) => !equal(l(s), r(s));
      case '&&':
      case 'and':
        return (s) => truth(l(s)) && truth(r(s));
      case '||':
      case 'or':
        return (s) => truth(l(s)) || truth(r(s));
      default:
        return fail(`unknown operator ${op}`, op);
    }
  };

  const root = compile(ast, 0);
  if (errors.length) return { formula: null, errors };
  let tracedRoot: Node | null = null;
  return {
    formula: {
      variables: [...variables],
      employeeFields: [...employeeFields],
      tables: [...tables],
      evaluate: root,
      explain(scope) {
        if (!tracedRoot) {
          traced = true;
          nodes = 0;
          tracedRoot = compile(ast, 0);
          traced = false;
        }
        const recorded: FormulaStep[] = [];
        steps = recorded;
        try {
          return { value: tracedRoot(scope), steps: recorded };
        } finally {
          steps = null;
        }
      },
    },
    errors: [],
  };
}

/**
 * bracket(): Σ rate × the part of x inside each bracket (above `from`, up to `to`), plus the
 * `fixed` of the bracket x falls in; band(): that bracket's rate. x falls in the bracket with
 * from < x ≤ to (the first one also takes x = from): a bracket from 10 000 to 20 000 takes
 * 10 000.01 to 20 000.00. x below the first bracket or in no bracket is an error naming the table.
 */
function bracketValue(fn: string, t: FormulaTable, x: Dec): Dec {
  const rows = t.brackets!;
  const inside = rows.findIndex((b, i) => (x.gt(b.from) || (i === 0 && x.eq(b.from))) && (b.to === null || x.lte(b.to)));
  if (inside < 0)
    throw new FormulaRuntimeError(`${x.toString()} is outside the brackets of table "${t.name}" (version ${t.version})`);
  if (fn === 'band') return rows[inside].rate;
  let total = rows[inside].fixed;
  for (const b of rows) {
    if (!x.gt(b.from)) break;
    const top = b.to === null || x.lt(b.to) ? x : b.to;
    total = total.plus(top.minus(b.from).times(b.rate));
  }
  return inRange(total);
}

function equal(a: Value, b: Value): boolean {
  if (typeof a === 'boolean' || typeof b === 'boolean') return a === b;
  return a.eq(b);
}

function call(name: string, args: Node[], fail: (message: string, token?: string) => Node): Node {
  const arity = (min: number, max: number): boolean => args.length >= min && args.length <= max;
  switch (name) {
    case 'if':
      if (!arity(3, 3)) return fail('if takes 3 arguments: if(condition, then, else)', 'if');
      return (s) => (truth(args[0](s)) ? args[1](s) : args[2](s));
    case 'min':
    case 'max':
      if (!arity(1, 100)) return fail(`${name} takes 1 to 100 arguments`, name);
      return (s) => {
        const values = args.map((a) => num(a(s), name));
        return name === 'min' ? Dec.min(...values) : Dec.max(...values);
      };
    case 'round':
      if (!arity(1, 2)) return fail('round takes 1 or 2 arguments: round(x, places)', 'round');
      return (s) => {
        const places = args[1] ? num(args[1](s), 'round') : new Dec(0);
        if (!places.isInteger() || places.lt(0) || places.gt(10)) throw new FormulaRuntimeError('round: places must be 0 to 10');
        return num(args[0](s), 'round').toDecimalPlaces(places.toNumber(), Decimal.ROUND_HALF_UP);
      };
    case 'floor':
    case 'ceil':
    case 'abs':
      if (!arity(1, 1)) return fail(`${name} takes 1 argument`, name);
      return (s) => {
        const x = num(args[0](s), name);
        return name === 'floor' ? x.floor() : name === 'ceil' ? x.ceil() : x.abs();
      };
    default:
      return fail(`unknown function ${name}`, name);
  }
}

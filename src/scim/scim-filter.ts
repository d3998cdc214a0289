import { ScimError } from './scim.error';

/**
 * SCIM filters (RFC 7644 §3.4.2.2): attribute expressions with eq ne co sw ew gt ge lt le pr, and
 * or not, parentheses and value paths (emails[type eq "work"]). Lenient where identity providers
 * and the Microsoft test collection are: attribute names in any case, and an unquoted word taken
 * as a string (name.familyName eq Employee). Bounded: a filter of at most 2 000 characters and
 * 100 expressions, so a client cannot make the parser or the matcher work without end.
 */
export type Filter =
  | { op: 'and' | 'or'; left: Filter; right: Filter }
  | { op: 'not'; expr: Filter }
  | { op: 'pr'; path: string }
  | { op: CompareOp; path: string; value: FilterValue }
  | { op: 'path'; path: string; filter: Filter };

export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';
export type FilterValue = string | number | boolean | null;

const COMPARE = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);
export const MAX_FILTER_LENGTH = 2000;
const MAX_NODES = 100;

const invalid = (why: string) => new ScimError('invalidFilter', `Invalid filter: ${why}`);

type Token = { kind: 'word' | 'string' | '(' | ')' | '[' | ']'; text: string };

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i];
    if (/\s/.test(c)) {
      i += 1;
    } else if ('()[]'.includes(c)) {
      tokens.push({ kind: c as Token['kind'], text: c });
      i += 1;
    } else if (c === '"') {
      let j = i + 1;
      while (j < input.length && input[j] !== '"') j += input[j] === '\\' ? 2 : 1;
      if (j >= input.length) throw invalid('a string is not closed');
      try {
        tokens.push({ kind: 'string', text: JSON.parse(input.slice(i, j + 1)) as string });
      } catch {
        throw invalid('a string has a bad escape');
      }
      i = j + 1;
    } else {
      let j = i;
      while (j < input.length && !/[\s()[\]"]/.test(input[j])) j += 1;
      tokens.push({ kind: 'word', text: input.slice(i, j) });
      i = j;
    }
  }
  return tokens;
}

const ATTR_PATH = /^(urn:[A-Za-z0-9.:_-]+:)?[A-Za-z$][\w$-]*(\.[A-Za-z$][\w$-]*)?$/;

export function parseFilter(input: string): Filter {
  if (input.length > MAX_FILTER_LENGTH) throw invalid(`longer than ${MAX_FILTER_LENGTH} characters`);
  const tokens = tokenize(input);
  let pos = 0;
  let nodes = 0;
  const peek = () => tokens[pos];
  const isWord = (t: Token | undefined, w: string) => t?.kind === 'word' && t.text.toLowerCase() === w;
  const count = <T>(f: T): T => {
    nodes += 1;
    if (nodes > MAX_NODES) throw invalid(`more than ${MAX_NODES} expressions`);
    return f;
  };

  function or(): Filter {
    let left = and();
    while (isWord(peek(), 'or')) {
      pos += 1;
      left = count({ op: 'or', left, right: and() });
    }
    return left;
  }
  function and(): Filter {
    let left = unary();
    while (isWord(peek(), 'and')) {
      pos += 1;
      left = count({ op: 'and', left, right: unary() });
    }
    return left;
  }
  function unary(): Filter {
    const t = peek();
    if (!t) throw invalid('it ends where an expression was expected');
    if (isWord(t, 'not') && tokens[pos + 1]?.kind === '(') {
      pos += 1;
      return count({ op: 'not', expr: group() });
    }
    if (t.kind === '(') return group();
    return attrExpression();
  }
  function group(): Filter {
    pos += 1; // (
    const inner = or();
    if (peek()?.kind !== ')') throw invalid('a parenthesis is not closed');
    pos += 1;
    return inner;
  }
  function attrExpression(): Filter {
    const t = tokens[pos++];
    if (t.kind !== 'word' || !ATTR_PATH.test(t.text)) throw invalid(`"${t.text}" is not an attribute path`);
    if (peek()?.kind === '[') {
      pos += 1;
      const filter = or();
      if (peek()?.kind !== ']') throw invalid('a value filter is not closed');
      pos += 1;
      return count({ op: 'path', path: t.text, filter });
    }
    const opToken = tokens[pos++];
    const op = opToken?.kind === 'word' ? opToken.text.toLowerCase() : '';
    if (op === 'pr') return count({ op: 'pr', path: t.text });
    if (!COMPARE.has(op)) throw invalid(`"${opToken?.text ?? 'the end'}" is not an operator`);
    const v = tokens[pos++];
    if (!v || (v.kind !== 'string' && v.kind !== 'word')) throw invalid(`${op} needs a value`);
    return count({ op: op as CompareOp, path: t.text, value: v.kind === 'string' ? v.text : literal(v.text) });
  }

  const result = or();
  if (pos < tokens.length) throw invalid(`unexpected "${tokens[pos].text}"`);
  return result;
}

function literal(word: string): FilterValue {
  const lower = word.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (lower === 'null') return null;
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(word)) return Number(word);
  return word; // an unquoted word: taken as a string, as providers send it
}

/** The URN prefix of an attribute path and the rest (name.familyName), lower-cased for lookup. */
export function splitPath(path: string): { urn: string | null; attr: string; sub: string | null } {
  let urn: string | null = null;
  let rest = path;
  if (/^urn:/i.test(path)) {
    const at = path.lastIndexOf(':');
    urn = path.slice(0, at).toLowerCase();
    rest = path.slice(at + 1);
  }
  const [attr, sub] = rest.split('.');
  return { urn, attr: attr.toLowerCase(), sub: sub?.toLowerCase() ?? null };
}

/** A resource's property by a name in any case. */
export function propertyOf(obj: unknown, name: string): unknown {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const key = Object.keys(obj).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : (obj as Record<string, unknown>)[key];
}

/** The values a path names in a resource (a multi-valued attribute gives each element's). */
export function valuesAt(resource: unknown, path: string, defaultUrn: string): unknown[] {
  const { urn, attr, sub } = splitPath(path);
  const base = urn && urn !== defaultUrn.toLowerCase() ? propertyOf(resource, urn) : resource;
  const top = propertyOf(base, attr);
  const items = Array.isArray(top) ? top : top === undefined || top === null ? [] : [top];
  if (!sub) {
    // A complex multi-valued attribute compared directly means its value sub-attribute (RFC 7644 §3.4.2.2).
    return items.map((i: unknown) => (typeof i === 'object' && i !== null ? propertyOf(i, 'value') : i));
  }
  return items.map((i) => propertyOf(i, sub)).filter((v) => v !== undefined && v !== null);
}

const CASE_EXACT = new Set(['id', 'externalid']);

function compare(actual: unknown, op: CompareOp, expected: FilterValue, caseExact: boolean): boolean {
  if (actual === undefined || actual === null) return op === 'ne' ? expected !== null : expected === null && op === 'eq';
  if (typeof actual === 'boolean' || typeof expected === 'boolean') {
    const e = typeof expected === 'string' ? expected.toLowerCase() === 'true' : expected;
    return op === 'eq' ? actual === e : op === 'ne' ? actual !== e : false;
  }
  if (typeof actual === 'number' && typeof expected === 'number') return ordered(actual - expected, op);
  if (typeof actual === 'object') return false; // a complex value compares with nothing
  const text = typeof actual === 'string' ? actual : JSON.stringify(actual);
  const a = caseExact ? text : text.toLowerCase();
  const e = expected === null ? '' : caseExact ? String(expected) : String(expected).toLowerCase();
  if (['gt', 'ge', 'lt', 'le'].includes(op)) {
    const at = Date.parse(text);
    const et = Date.parse(String(expected));
    if (!Number.isNaN(at) && !Number.isNaN(et)) return ordered(at - et, op);
    return ordered(a < e ? -1 : a > e ? 1 : 0, op);
  }
  if (op === 'eq') return a === e;
  if (op === 'ne') return a !== e;
  if (op === 'co') return a.includes(e);
  if (op === 'sw') return a.startsWith(e);
  return op === 'ew' && a.endsWith(e);
}

function ordered(diff: number, op: CompareOp): boolean {
  return op === 'gt' ? diff > 0 : op === 'ge' ? diff >= 0 : op === 'lt' ? diff < 0 : op === 'le' ? diff <= 0 : diff === 0;
}

/**
 * What one list request may spend on its filter: each expression evaluated against each value
 * counts one. A filter that would spend more is refused (400 tooMany) instead of holding the event
 * loop: 1 000 users with 900 e-mails each and 99 expressions were 34 s of it (docs/api/scim.md, "Limits").
 */
export const MAX_FILTER_WORK = 2_000_000;

export class FilterBudget {
  private left: number;
  constructor(readonly limit = MAX_FILTER_WORK) {
    this.left = limit;
  }
  spend(units: number): void {
    this.left -= units;
    if (this.left < 0) {
      throw new ScimError(
        'tooMany',
        `The filter needs more than ${this.limit} comparisons over the resources it would read: narrow it (userName eq, externalId eq, or fewer expressions)`,
      );
    }
  }
}

const UNBOUNDED = { spend: () => undefined };

/** Whether a resource (as the service shows it) matches the filter; the work is counted on the budget. */
export function matches(
  resource: unknown,
  filter: Filter,
  defaultUrn: string,
  budget: Pick<FilterBudget, 'spend'> = UNBOUNDED,
): boolean {
  budget.spend(1);
  switch (filter.op) {
    case 'and':
      return matches(resource, filter.left, defaultUrn, budget) && matches(resource, filter.right, defaultUrn, budget);
    case 'or':
      return matches(resource, filter.left, defaultUrn, budget) || matches(resource, filter.right, defaultUrn, budget);
    case 'not':
      return !matches(resource, filter.expr, defaultUrn, budget);
    case 'pr':
      return valuesAt(resource, filter.path, defaultUrn).some((v) => v !== '' && !(Array.isArray(v) && !v.length));
    case 'path': {
      const { urn, attr } = splitPath(filter.path);
      const base = urn && urn !== defaultUrn.toLowerCase() ? propertyOf(resource, urn) : resource;
      const items = propertyOf(base, attr);
      return Array.isArray(items) && items.some((item) => matches(item, filter.filter, defaultUrn, budget));
    }
    case 'eq':
    case 'ne':
    case 'co':
    case 'sw':
    case 'ew':
    case 'gt':
    case 'ge':
    case 'lt':
    case 'le': {
      const caseExact = CASE_EXACT.has(splitPath(filter.path).attr);
      const values = valuesAt(resource, filter.path, defaultUrn);
      budget.spend(values.length);
      if (!values.length) return compare(undefined, filter.op, filter.value, caseExact);
      return filter.op === 'ne'
        ? values.every((v) => compare(v, 'ne', filter.value, caseExact))
        : values.some((v) => compare(v, filter.op, filter.value, caseExact));
    }
  }
}

/**
 * The value an `attr eq "x"` filter (alone, or and-ed with others) pins for an indexed column:
 * what lets a lookup by userName or externalId use the index instead of reading every user.
 */
export function pinnedValue(filter: Filter, attr: string): string | null {
  if (
    filter.op === 'eq' &&
    splitPath(filter.path).attr === attr &&
    !splitPath(filter.path).sub &&
    typeof filter.value === 'string'
  ) {
    return filter.value;
  }
  if (filter.op === 'and') return pinnedValue(filter.left, attr) ?? pinnedValue(filter.right, attr);
  return null;
}

/**
 * The value an `attr.sub eq "v"` (or `attr[sub eq "v"]`) the whole filter requires, as pinnedValue
 * for a sub-attribute of a multi-valued one (`emails.value`); null when there is none.
 */
export function pinnedSubValue(filter: Filter, attr: string, sub: string): string | null {
  if (filter.op === 'eq' && typeof filter.value === 'string') {
    const p = splitPath(filter.path);
    if (p.attr === attr && p.sub === sub) return filter.value;
  }
  if (filter.op === 'path' && splitPath(filter.path).attr === attr && !splitPath(filter.path).sub)
    return pinnedValue(filter.filter, sub);
  if (filter.op === 'and') return pinnedSubValue(filter.left, attr, sub) ?? pinnedSubValue(filter.right, attr, sub);
  return null;
}

import { DIFF_CAUSE_KINDS } from '../dto/payroll-explain.dto';
import type { DiffCauseDto, PayrollDiffRowDto } from '../dto/payroll-explain.dto';
import { PageQueryDto } from '../../common/paging/list-query.dto';
import { pageOf } from '../../common/paging/list-request';
import { Page } from '../../common/paging/page';

/** Which rows of a diff a request reads. */
export interface DiffSelection {
  /** The employees the caller may see (null: all). */
  visible: ReadonlySet<number> | null;
  employee?: number;
  column?: number;
  cause?: (typeof DIFF_CAUSE_KINDS)[number];
}

const NULL_VALUE = 0xffffffff;
const KIND_BIT = new Map<string, number>(DIFF_CAUSE_KINDS.map((k, i) => [k, 1 << i]));

/** The parts of a DiffTable, as its builder leaves them. */
interface DiffTableParts {
  size: number;
  employees: Int32Array;
  columns: Int32Array;
  /** Each row's list of causes: an index into `distinctCauses`. */
  causeLists: Uint32Array;
  /** Start and end of each row's old, new and difference in `text` (3 per row); NULL_VALUE for null. */
  starts: Uint32Array;
  ends: Uint32Array;
  text: Buffer;
  distinctCauses: readonly DiffCauseDto[][];
  /** Per distinct cause list: a bit per cause kind it holds. */
  kinds: Uint16Array;
  employeeNames: ReadonlyMap<number, string>;
  columnNames: ReadonlyMap<number, string>;
  /** What the table holds, counted when it was built. */
  bytes: number;
}

/**
 * The rows of a payroll diff held compactly (issue 49): a 12 500 × 30 diff had held a few hundred
 * MiB as one object per row (its strings, a copy of every cause per row). Here a row is a few
 * numbers in typed arrays: its employee, its column, its list of causes (the distinct lists are
 * kept once: a changed column or table gives every row of it the same one), and where its three
 * values (old, new, difference) lie in one UTF-8 buffer. Names are kept once per employee and
 * column. Rows become objects only for the page asked for.
 */
export class DiffTable {
  constructor(private readonly p: DiffTableParts) {}

  static builder(capacity: number): DiffTableBuilder {
    return new DiffTableBuilder(capacity);
  }

  get size(): number {
    return this.p.size;
  }

  /** What the table holds in memory, in bytes (typed arrays and buffer exactly, causes and names estimated). */
  get bytes(): number {
    return this.p.bytes;
  }

  /** The indexes of the rows the selection keeps, in the diff's order. */
  select(s: DiffSelection): number[] {
    const { size, employees, columns, kinds, causeLists } = this.p;
    const kind = s.cause === undefined ? 0 : (KIND_BIT.get(s.cause) ?? 0);
    const out: number[] = [];
    for (let i = 0; i < size; i++) {
      const e = employees[i];
      if (s.visible && !s.visible.has(e)) continue;
      if (s.employee !== undefined && e !== s.employee) continue;
      if (s.column !== undefined && columns[i] !== s.column) continue;
      if (kind && !(kinds[causeLists[i]] & kind)) continue;
      out.push(i);
    }
    return out;
  }

  column(i: number): number {
    return this.p.columns[i];
  }

  columnName(column: number): string {
    return this.p.columnNames.get(column) ?? '';
  }

  difference(i: number): string | null {
    return this.value(i, 2);
  }

  /**
   * Row i's difference in thousandths, read from the table's bytes without a string: null when it
   * has none, NaN when it is not a plain decimal of at most 3 places (then read difference()).
   */
  differenceThousandths(i: number): number | null {
    const at = i * 3 + 2;
    const start = this.p.starts[at];
    if (start === NULL_VALUE) return null;
    return plainThousandths(this.p.text, start, this.p.ends[at]);
  }

  /** The cause kinds of a row as bits: kind k (of DIFF_CAUSE_KINDS) is bit 1 << k. */
  causeBits(i: number): number {
    return this.p.kinds[this.p.causeLists[i]];
  }

  /** The cause kinds of a row, each once. */
  causeKinds(i: number): Array<(typeof DIFF_CAUSE_KINDS)[number]> {
    const bits = this.p.kinds[this.p.causeLists[i]];
    return DIFF_CAUSE_KINDS.filter((k) => bits & (KIND_BIT.get(k) ?? 0));
  }

  /** Row i as the API answers it: a new object (its causes are the table's, shared: not to be changed). */
  row(i: number): PayrollDiffRowDto {
    const employee = this.p.employees[i];
    const column = this.p.columns[i];
    return {
      employee,
      employee_name: this.p.employeeNames.get(employee) ?? `#${employee}`,
      column,
      column_name: this.columnName(column),
      old: this.value(i, 0),
      new: this.value(i, 1),
      difference: this.value(i, 2),
      causes: this.p.distinctCauses[this.p.causeLists[i]],
    };
  }

  private value(i: number, which: 0 | 1 | 2): string | null {
    const at = i * 3 + which;
    const start = this.p.starts[at];
    return start === NULL_VALUE ? null : this.p.text.toString('utf8', start, this.p.ends[at]);
  }
}

const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;

/** `[-]digits[.d{0,3}]` in bytes [start, end) as an integer of thousandths (exact up to 2^53); NaN for anything else. */
export function plainThousandths(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  const negative = bytes[i] === MINUS;
  if (negative) i++;
  let n = 0;
  let digits = 0;
  let places = -1;
  for (; i < end; i++) {
    const b = bytes[i];
    if (b === DOT && places < 0) {
      places = 0;
      continue;
    }
    const d = b - ZERO;
    if (d < 0 || d > 9 || places === 3) return NaN;
    n = n * 10 + d;
    digits++;
    if (places >= 0) places++;
  }
  if (!digits || digits > 15) return NaN;
  for (let p = Math.max(places, 0); p < 3; p++) n *= 10;
  return negative ? -n : n;
}

/** Thousandths as decimal.js prints their value: no trailing zeros, no sign for zero ("-1.5", "0", "12.345"). */
export function thousandthsText(n: number): string {
  const a = Math.abs(n);
  const fraction = String(a % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return `${n < 0 ? '-' : ''}${Math.floor(a / 1000)}${fraction ? `.${fraction}` : ''}`;
}

/** The first `n` items of `a`: a view when they are all of it, else a copy (so the table holds no spare capacity). */
const exact = <T extends Int32Array | Uint32Array>(a: T, n: number): T =>
  a.length === n ? (a.subarray(0, n) as T) : (a.slice(0, n) as T);

/** Collects a diff's rows, interning their cause lists, then freezes them into a DiffTable. */
export class DiffTableBuilder {
  private size = 0;
  private employees: Int32Array;
  private columns: Int32Array;
  private causeLists: Uint32Array;
  private starts: Uint32Array;
  private ends: Uint32Array;
  private text: Buffer;
  private textBytes = 0;
  private readonly causeIndex = new Map<string, number>();
  private readonly distinctCauses: DiffCauseDto[][] = [];
  private causeBytes = 0;
  private readonly kinds: number[] = [];

  /** `capacity`: the rows expected; more are taken (the arrays grow by half). */
  constructor(private capacity: number) {
    this.capacity = Math.max(1, capacity);
    this.employees = new Int32Array(this.capacity);
    this.columns = new Int32Array(this.capacity);
    this.causeLists = new Uint32Array(this.capacity);
    this.starts = new Uint32Array(this.capacity * 3);
    this.ends = new Uint32Array(this.capacity * 3);
    this.text = Buffer.allocUnsafe(Math.max(1024, this.capacity * 24));
  }

  private grow(): void {
    this.capacity = Math.ceil(this.capacity * 1.5);
    const larger = <T extends Int32Array | Uint32Array>(a: T, per: number): T => {
      const b = new (a.constructor as new (n: number) => T)(this.capacity * per);
      b.set(a);
      return b;
    };
    this.employees = larger(this.employees, 1);
    this.columns = larger(this.columns, 1);
    this.causeLists = larger(this.causeLists, 1);
    this.starts = larger(this.starts, 3);
    this.ends = larger(this.ends, 3);
  }

  /** Adds a row; `causes` is called for its list of causes (kept once per distinct list). */
  add(
    employee: number,
    column: number,
    values: readonly [string | null, string | null, string | null],
    causes: DiffCauseDto[],
  ): void {
    if (this.size >= this.capacity) this.grow();
    const i = this.size++;
    this.employees[i] = employee;
    this.columns[i] = column;
    for (let k = 0; k < 3; k++) {
      const v = values[k];
      if (v === null) {
        this.starts[i * 3 + k] = NULL_VALUE;
        continue;
      }
      if (this.textBytes + v.length * 3 > this.text.length) {
        const grown = Buffer.allocUnsafe(Math.max(this.text.length * 2, this.textBytes + v.length * 3));
        this.text.copy(grown, 0, 0, this.textBytes);
        this.text = grown;
      }
      this.starts[i * 3 + k] = this.textBytes;
      this.textBytes += this.text.write(v, this.textBytes, 'utf8');
      this.ends[i * 3 + k] = this.textBytes;
    }
    const key = JSON.stringify(causes);
    let index = this.causeIndex.get(key);
    if (index === undefined) {
      index = this.distinctCauses.length;
      this.causeIndex.set(key, index);
      this.distinctCauses.push(causes);
      // The objects, their keys and strings: about three times their JSON.
      this.causeBytes += key.length * 3;
      this.kinds.push(causes.reduce((bits, c) => bits | (KIND_BIT.get(c.kind) ?? 0), 0));
    }
    this.causeLists[i] = index;
  }

  build(employeeNames: ReadonlyMap<number, string>, columnNames: ReadonlyMap<number, string>): DiffTable {
    const n = this.size;
    const text = Buffer.from(this.text.subarray(0, this.textBytes));
    let nameBytes = 0;
    for (const names of [employeeNames, columnNames]) for (const name of names.values()) nameBytes += 40 + name.length * 2;
    const parts: DiffTableParts = {
      size: n,
      // Views when the arrays are full (built with the exact row count), else copies of the rows' part.
      employees: exact(this.employees, n),
      columns: exact(this.columns, n),
      causeLists: exact(this.causeLists, n),
      starts: exact(this.starts, n * 3),
      ends: exact(this.ends, n * 3),
      text,
      distinctCauses: this.distinctCauses,
      kinds: Uint16Array.from(this.kinds),
      employeeNames,
      columnNames,
      bytes: 0,
    };
    const typed = [parts.employees, parts.columns, parts.causeLists, parts.starts, parts.ends, parts.kinds];
    parts.bytes = typed.reduce((sum, a) => sum + a.buffer.byteLength, 0) + text.length + this.causeBytes + nameBytes;
    return new DiffTable(parts);
  }
}

/** A page of a diff's selected rows, made into objects for that page only. */
export function diffPage(table: DiffTable, selected: number[], query: PageQueryDto): Page<PayrollDiffRowDto> {
  const page = pageOf(selected, query);
  return new Page(
    page.items.map((i) => table.row(i)),
    page.total,
    page.page,
    page.limit,
  );
}

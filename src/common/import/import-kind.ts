import { Injectable } from '@nestjs/common';
import { IMPORT_KIND_NAMES } from './import-kinds.constants';
import { EntityManager } from 'typeorm';
import { AuthUser } from '../auth/auth-user';
import { ErrorDetail } from '../errors/domain.exception';
import { Cell } from './sheet-readers';

/** What a column holds: how a template shows it and how a cell is read. */
export type ImportColumnType = 'text' | 'date' | 'date-time' | 'number' | 'integer' | 'boolean' | 'reference';

/** A column an import reads: the API field, the label a spreadsheet may use instead, an example. */
export interface ImportColumn {
  field: string;
  label: string;
  type: ImportColumnType;
  example: string | number | boolean | null;
  required?: boolean;
  /** What the template's reader is told: "department by name or id". */
  note?: string;
}

/** A data row: its number in the file (1 = the first data row) and its values by field. */
export interface ImportRow {
  row: number;
  values: Map<string, Cell>;
}

/** A row's problem as GET /imports/{id}/errors lists it (column: the file's header; null for the row as a whole). */
export interface RowError {
  row: number;
  column: string | null;
  field: string | null;
  message: string;
}

/** The import a kind's session works for: who asked (its scope applies), and the kind's own parameter. */
export interface ImportRun {
  id: number;
  caller: AuthUser;
  /** payroll-data: the payroll whose cells are edited. */
  payroll: number | null;
}

/**
 * One pass of a kind over a file: batches in file order. `batch` checks its rows and, when
 * `apply`, writes the valid ones with `em` (the transaction the pipeline holds: it commits or
 * rolls it back, so a dry run and an all-or-nothing import with errors leave nothing). A session
 * keeps what it needs across batches (employee_ids seen earlier in the file).
 */
export interface ImportSession {
  batch(em: EntityManager, rows: ImportRow[], apply: boolean): Promise<RowDetail[]>;
  /** Rows an earlier attempt already wrote (a resumed valid-rows import): remembered, not checked again. */
  remember?(rows: ImportRow[]): void;
  /** This run's columns, when they are not the kind's (ImportKind.columnsFor: the caller's). */
  columns?: readonly ImportColumn[];
}

/** A row's problem as the JSON API words it (its field, its message). */
export interface RowDetail extends ErrorDetail {
  row: number;
}

export interface ImportKind {
  kind: string;
  columns: readonly ImportColumn[];
  /**
   * True when `batch(.., apply: false)` checks rows exactly without writing (the employees kind's
   * batched checks): a dry run then needs no transaction. Otherwise a dry run writes each row in
   * a transaction that is rolled back (the rules are the service's own, run as they are).
   */
  validatesWithoutWriting: boolean;
  /** Rows per batch. */
  batchSize: number;
  /** Whether the kind needs `payroll`. */
  needsPayroll?: boolean;
  /** The columns as they are for `caller`, when they depend on it (the employees kind: the custom fields it may write). */
  columnsFor?(caller: AuthUser): Promise<readonly ImportColumn[]>;
  start(run: ImportRun): Promise<ImportSession>;
}

/**
 * The kinds an import may be: each domain module registers its own (in onModuleInit), so the
 * Imports module knows none of them and common/ imports no domain module.
 */
@Injectable()
export class ImportKinds {
  private readonly kinds = new Map<string, ImportKind>();

  register(kind: ImportKind): void {
    if (!IMPORT_KIND_NAMES.includes(kind.kind)) throw new Error(`import kind ${kind.kind} is not declared (declareImportKind)`);
    this.kinds.set(kind.kind, kind);
  }

  get(kind: string): ImportKind | undefined {
    return this.kinds.get(kind);
  }

  names(): string[] {
    return [...this.kinds.keys()];
  }
}

/** A header as compared: case, spaces, underscores and punctuation ignored ("Job Title" = "job_title"). */
export function headerKey(header: string): string {
  return header
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** A cell as text (numbers as written, dates as YYYY-MM-DD), or undefined when empty. */
export function cellText(cell: Cell | undefined): string | undefined {
  if (cell === null || cell === undefined) return undefined;
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? 'invalid date' : isoDate(cell);
  const text = String(cell).trim();
  return text === '' ? undefined : text;
}

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/**
 * A cell as the JSON API field of `type` would carry it: a date cell as YYYY-MM-DD (date) or an
 * ISO instant (date-time), numbers from text ("1,234.50" stays text: the DTO names the problem),
 * booleans from yes/no/true/false/1/0. What cannot be read is passed as text for the DTO to refuse
 * with the JSON API's own message.
 */
export function cellValue(cell: Cell | undefined, type: ImportColumnType): string | number | boolean | undefined {
  if (cell === null || cell === undefined) return undefined;
  if (typeof cell === 'string' && cell.trim() === '') return undefined;
  switch (type) {
    case 'date':
      return cell instanceof Date ? isoDate(cell) : cellText(cell);
    case 'date-time':
      return cell instanceof Date ? cell.toISOString().replace('.000Z', 'Z') : cellText(cell);
    case 'number':
    case 'integer': {
      if (typeof cell === 'number') return cell;
      const text = cellText(cell);
      return text !== undefined && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    }
    case 'boolean': {
      if (typeof cell === 'boolean') return cell;
      const text = cellText(cell)?.toLowerCase();
      if (text === 'true' || text === 'yes' || text === '1') return true;
      if (text === 'false' || text === 'no' || text === '0') return false;
      return text;
    }
    case 'reference':
      return typeof cell === 'number' ? cell : cellText(cell);
    case 'text':
      return typeof cell === 'number' ? String(cell) : unneutralized(cellText(cell));
  }
}

/**
 * A cell an export neutralized (CSV injection: `'` before = + - @ tab CR) read back as its value,
 * so that a file exported and imported again changes nothing; exported again it is neutralized again.
 */
function unneutralized(text: string | undefined): string | undefined {
  return text !== undefined && /^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
}

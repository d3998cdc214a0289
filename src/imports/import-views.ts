import { XLSX_TYPE } from '../common/export/sheet-writers';
import { SheetFormat } from '../common/import/sheet-readers';
import { ListSpec } from '../common/paging/list-request';
import { ImportDto } from './dto/import.dto';
import { ImportRecord } from './entities/import.entities';

export const IMPORT_LIST_SPEC: ListSpec = {
  defaultSort: { field: 'id', order: 'descend' },
  idColumn: 'i.id',
  sortFields: { id: 'i.id', created_at: 'i.created_at' },
  filterFields: {
    kind: { column: 'i.kind', type: 'string' },
    status: { column: 'i.status', type: 'string' },
  },
};

export const IMPORT_ERROR_LIST_SPEC: ListSpec = {
  defaultSort: { field: 'row', order: 'ascend' },
  idColumn: 'r.id',
  sortFields: { row: 'r.row' },
  filterFields: { field: { column: 'r.field', type: 'string' } },
};

export const TYPES: Record<string, SheetFormat> = { 'text/csv': 'csv', [XLSX_TYPE]: 'xlsx' };

export function toImportDto(r: ImportRecord): ImportDto {
  return {
    id: r.id,
    kind: r.kind,
    file_name: r.fileName,
    dry_run: r.dryRun,
    mode: r.mode,
    status: r.status,
    payroll: r.payrollId,
    rows_total: r.rowsTotal,
    rows_valid: r.rowsValid,
    rows_failed: r.rowsFailed,
    progress: r.progress,
    error: r.error,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
    finished_at: r.finishedAt ? r.finishedAt.toISOString() : null,
  };
}

/** A client's file name, kept printable and short (it is shown, never used as a path). */
export function fileNameOf(disposition: string | undefined, format: SheetFormat): string {
  const m = disposition ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition) : null;
  let name = m ? m[1] : '';
  try {
    name = decodeURIComponent(name);
  } catch {
    // kept as sent
  }
  name = name
    .replace(/[\\/]/g, '_')
    .replace(/\p{Cc}/gu, '')
    .trim()
    .slice(0, 255);
  return name || `upload.${format}`;
}

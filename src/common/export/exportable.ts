import { randomBytes } from 'node:crypto';
import { RouteConfigPart } from '../http/route-config';
import { CompanyClock } from '../time/company-clock';
import { withExportPageSize } from '../paging/export-paging';
import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtension, ApiQuery } from '@nestjs/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough } from 'node:stream';
import { DataSource } from 'typeorm';
import { runAs } from '../audit/audit-context';
import { recordAudit } from '../audit/audit-log';
import { Authenticator } from '../auth/authenticator';
import { transaction } from '../database/transaction';
import { ValidationException } from '../errors/domain.exception';
import { MAX_PAGE_SIZE } from '../paging/list-query.dto';
import { ExportColumn, SHEET_CONTENT_TYPES, sheetWriter, XLSX_TYPE } from './sheet-writers';

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Route config key of an exportable list (read by the export hook). */
const EXPORT_CONFIG = 'export';
/** Marks an exportable list in the OpenAPI document; finishDocument adds its file answers. */
export const EXPORT_EXTENSION = 'x-export';

/** One page of a handler's answer as a sheet: its columns, rows, and the next page (null: the last). */
export interface SheetPage {
  columns: ExportColumn[];
  items: ReadonlyArray<Record<string, unknown>>;
  nextPage: number | null;
}

/** How an answer that is not a Page of items (the payroll grid) becomes sheet rows. */
export interface SheetAdapter {
  sheet(answer: unknown): SheetPage;
}

interface ExportSpec {
  /** The list's name in the file name and the audit log (employees, leaves, ...). */
  resource: string;
  /** A Page's item DTO (its properties, in declaration order, are the columns), or an adapter. */
  item: Type<unknown> | SheetAdapter;
}

/**
 * The columns of an item DTO: its @ApiProperty names in declaration order (as @nestjs/swagger
 * records them), each with the kind an XLSX cell takes from its documented format.
 */
export function exportColumns(item: Type<unknown>): ExportColumn[] {
  const prototype = item.prototype as object;
  const names = (Reflect.getMetadata('swagger/apiModelPropertiesArray', prototype) ?? []) as string[];
  return names.map((n) => {
    const field = n.replace(/^:/, '');
    const format = (Reflect.getMetadata('swagger/apiModelProperties', prototype, field) as { format?: string } | undefined)
      ?.format;
    return { field, kind: format === 'date' || format === 'date-time' ? format : 'other' };
  });
}

/** Whether an item DTO's property is documented as an object of named values (custom_fields): exported as a column per name. */
function isObjectColumn(item: Type<unknown>, field: string): boolean {
  const meta = Reflect.getMetadata('swagger/apiModelProperties', item.prototype as object, field) as
    { type?: unknown } | undefined;
  return meta?.type === 'object';
}

/**
 * The columns of a list's export: an object property (custom_fields) becomes a column per name it
 * holds in the first item, headed by the name (docs/api/exports.md), and is left out of an empty export.
 */
function sheetColumns(
  item: Type<unknown>,
  columns: readonly ExportColumn[],
  first: Record<string, unknown> | undefined,
): ExportColumn[] {
  return columns.flatMap((c) => {
    if (!isObjectColumn(item, c.field)) return [c];
    const names = Object.keys((first?.[c.field] as object | null | undefined) ?? {});
    return names.map((name) => ({
      field: `${c.field}.${name}`,
      header: name,
      kind: 'other' as const,
      within: { property: c.field, name },
    }));
  });
}

/** The format a list request asks for as a file: `format=csv|xlsx`, or `Accept: text/csv` or the XLSX type without JSON; null for a JSON page. */
export function exportFormat(request: FastifyRequest): ExportFormat | null {
  const query = request.query as Record<string, unknown>;
  const format = query.format;
  if (format !== undefined) {
    if (typeof format !== 'string' || !(EXPORT_FORMATS as readonly string[]).includes(format))
      throw ValidationException.field('format', `must be one of ${EXPORT_FORMATS.join(', ')}`);
    return format as ExportFormat;
  }
  const accept = request.headers.accept ?? '';
  const types = accept.split(',').map((t) => t.split(';')[0].trim().toLowerCase());
  if (types.includes('application/json')) return null;
  return types.includes('text/csv') ? 'csv' : types.includes(XLSX_TYPE) ? 'xlsx' : null;
}

/**
 * A list route that also answers as a file (issue 27, docs/api/decisions.md §13): with `format=csv|xlsx`, or
 * `Accept: text/csv` or the XLSX type, every row the JSON list would page through (the same scope,
 * filters, search and sort), streamed page by page of MAX_PAGE_SIZE (memory holds one page), as an
 * attachment; the export is recorded in the audit log (`export`, the list and how many rows).
 */
export function Exportable(resource: string, item: Type<unknown> | SheetAdapter): MethodDecorator {
  return applyDecorators(
    RouteConfigPart({ [EXPORT_CONFIG]: { resource, item } satisfies ExportSpec }),
    ApiQuery({
      name: 'format',
      required: false,
      enum: EXPORT_FORMATS,
      description:
        'Every matching row as a file instead of a page (also `Accept: text/csv` or the XLSX type): `page` and `limit` are ignored.',
    }),
    ApiExtension(EXPORT_EXTENSION, resource),
  );
}

/**
 * Serves the exports (a preHandler hook, so that a JSON request to a list costs nothing more than a
 * route-config lookup: a Nest interceptor on the list routes cost a quarter of a list request's
 * CPU). An export reads its pages as the JSON list answers them, through the application itself
 * (`inject`: authentication, validation, scope, envelope, each page as a client would get it), and
 * writes them as rows; a refused first page (400, 401, 403) is answered as it is.
 */
export function registerExports(
  fastify: FastifyInstance,
  deps: { dataSource: DataSource; authenticator: Authenticator; clock: CompanyClock },
): void {
  // An export's own page reads carry this process's random key: they alone read pages of
  // EXPORT_PAGE_SIZE rows (the rest of the request runs inside withExportPageSize).
  const pageSizeKey = randomBytes(24).toString('hex');
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (request.headers[PAGE_SIZE_HEADER] === pageSizeKey) withExportPageSize(EXPORT_PAGE_SIZE, done);
    else done();
  });
  // An export's page read hands its enveloped answer over as it is (after the envelope's hook),
  // and sends an empty object: writing a page of 4 000 employees as JSON and parsing it again
  // took a fifth of a CSV export's time (docs/performance.md, "Performance II").
  const answers = new Map<string, unknown>();
  fastify.addHook('preSerialization', (request, reply, payload, done) => {
    const read = request.headers[READ_HEADER];
    if (typeof read !== 'string' || reply.statusCode !== 200 || request.headers[PAGE_SIZE_HEADER] !== pageSizeKey)
      return done(null, payload);
    answers.set(read, payload);
    done(null, {});
  });
  // Callback style: every other request passes without a promise and a turn of the microtask queue.
  fastify.addHook('preHandler', (request, reply, done) => {
    const spec = (request.routeOptions.config as unknown as Record<string, unknown> | undefined)?.[EXPORT_CONFIG] as
      ExportSpec | undefined;
    const format = spec && request.method === 'GET' ? exportFormat(request) : undefined;
    if (!spec || !format) return done();
    // An export answers the request itself; the handler runs only if it did not.
    serveExport(fastify, { ...deps, pageSizeKey, answers }, request, reply, spec, format).then(
      () => (reply.sent ? undefined : done()),
      (err: Error) => done(err),
    );
  });
}

const PAGE_SIZE_HEADER = 'x-export-page-size-key';
/** Names one page read of an export, whose answer the preSerialization hook hands over. */
const READ_HEADER = 'x-export-read';
let reads = 0;

/**
 * Whether `value` is JSON's own data (what JSON.parse(JSON.stringify(value)) gives back unchanged):
 * null, strings, booleans, finite numbers, arrays and plain objects of these. Anything else (a Date,
 * undefined, a class with getters or toJSON) goes through JSON text, so that a page read either way
 * is the same rows.
 */
export function jsonData(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.every(jsonData);
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  for (const key in value) if (!jsonData((value as Record<string, unknown>)[key])) return false;
  return true;
}

/** Rows an export reads a page at a time (withExportPageSize): memory holds one such page. */
export const EXPORT_PAGE_SIZE = 4000;

async function serveExport(
  fastify: FastifyInstance,
  deps: {
    dataSource: DataSource;
    authenticator: Authenticator;
    clock: CompanyClock;
    pageSizeKey: string;
    answers: Map<string, unknown>;
  },
  request: FastifyRequest,
  reply: FastifyReply,
  spec: ExportSpec,
  format: ExportFormat,
): Promise<void> {
  const url = new URL(request.url, 'http://export.invalid');
  url.searchParams.delete('format');
  const filters = Object.fromEntries([...url.searchParams].filter(([k]) => k !== 'page' && k !== 'limit'));
  const headers = {
    authorization: request.headers.authorization ?? '',
    'x-request-id': request.id,
    accept: 'application/json',
    [PAGE_SIZE_HEADER]: deps.pageSizeKey,
  };
  const item = spec.item;
  const listColumns = 'sheet' in item ? [] : exportColumns(item);
  let columns: ExportColumn[] | null = null;
  const read = async (
    page: number,
  ): Promise<{ status: number; body: string; headers: Record<string, unknown>; sheet?: SheetPage }> => {
    url.searchParams.set('page', String(page));
    url.searchParams.set('limit', String(MAX_PAGE_SIZE));
    const read = String(++reads);
    const res = await fastify.inject({
      method: 'GET',
      url: `${url.pathname}${url.search}`,
      headers: { ...headers, [READ_HEADER]: read },
    });
    const handed = deps.answers.get(read);
    deps.answers.delete(read);
    if (res.statusCode !== 200) return { status: res.statusCode, body: res.body, headers: res.headers };
    const answer = (
      handed !== undefined && jsonData(handed) ? handed : JSON.parse(handed === undefined ? res.body : JSON.stringify(handed))
    ) as { data: unknown; nextPage?: number | null };
    const sheet: SheetPage =
      'sheet' in item
        ? item.sheet(answer.data)
        : {
            columns: (columns ??= sheetColumns(item, listColumns, (answer.data as Array<Record<string, unknown>>)[0])),
            items: answer.data as Array<Record<string, unknown>>,
            nextPage: answer.nextPage ?? null,
          };
    return { status: 200, body: '', headers: res.headers, sheet };
  };
  const first = await read(1);
  if (!first.sheet) {
    // Refused as the JSON list refuses it: the same status, error envelope and challenge headers.
    for (const name of ['www-authenticate', 'retry-after'])
      if (first.headers[name] !== undefined) void reply.header(name, first.headers[name]);
    await reply.code(first.status).header('content-type', 'application/json; charset=utf-8').send(first.body);
    return;
  }
  const caller = await deps.authenticator.authenticate((request.headers.authorization ?? '').replace(/^Bearer\s+/i, ''));
  // The record the list belongs to (an employee's attendance, a payroll's grid), else the list.
  const resourceId = (request.params as Record<string, string> | undefined)?.id ?? spec.resource;
  let audited = false;
  const audit = async (rows: number) => {
    if (audited) return;
    audited = true;
    await runAs(caller?.id ?? 'system', request.id, () =>
      transaction(deps.dataSource, (em) =>
        recordAudit(em, { action: 'export', resource: spec.resource, resourceId, after: { format, rows, query: filters } }),
      ),
    );
  };
  const out = new PassThrough();
  const writer = await sheetWriter(out, format, first.sheet.columns, spec.resource);
  const pump = async () => {
    let rows = 0;
    try {
      let sheet = first.sheet as SheetPage;
      for (let n = 1; !out.destroyed; n++) {
        if (n > 1) {
          const next = await read(n);
          if (!next.sheet) throw new Error(`export of ${spec.resource}: page ${n} answered ${next.status}`);
          sheet = next.sheet;
        }
        await writer.rows(sheet.items);
        rows += sheet.items.length;
        if (sheet.nextPage === null || !sheet.items.length) break;
      }
      // Recorded before the last bytes go: a client that has the whole file finds the entry.
      await audit(rows);
      if (!out.destroyed) await writer.end();
    } finally {
      // However the download ends (a client that hangs up received `rows` at most).
      await audit(rows);
    }
  };
  pump().catch((err: Error) => out.destroy(err));
  const day = await deps.clock.today(); // the file's name: the company's day
  const suffix = resourceId === spec.resource ? '' : `-${resourceId.replace(/\D/g, '')}`;
  await reply
    .header('content-type', SHEET_CONTENT_TYPES[format])
    .header('content-disposition', `attachment; filename="${spec.resource.replace(/[^\w-]/g, '-')}${suffix}-${day}.${format}"`)
    .send(out);
}

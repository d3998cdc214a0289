import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
  Type,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiExtension, ApiQuery } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough, Readable } from 'node:stream';
import { lastValueFrom, Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import { auditContext, runAs } from '../audit/audit-context';
import { recordAudit } from '../audit/audit-log';
import { transaction } from '../database/transaction';
import { ValidationException } from '../errors/domain.exception';
import { MAX_PAGE_SIZE } from '../paging/list-query.dto';
import { Page } from '../paging/page';
import { csvWriter, ExportColumn, XLSX_TYPE, xlsxWriter } from './sheet-writers';

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

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

const EXPORT_SPEC = 'hr:export';
/** Marks an exportable list in the OpenAPI document; finishDocument adds its `text/csv` answer. */
export const EXPORT_EXTENSION = 'x-export';

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
 * A list route that also answers as a file (issue 27, API.md §13): with `format=csv` or `Accept:
 * text/csv`, every row the JSON list would page through (the same scope, filters, search and sort),
 * streamed page by page of MAX_PAGE_SIZE (memory holds one page), as an attachment; the export is
 * recorded in the audit log (`export`, the list and how many rows), after its last row.
 */
export function Exportable(resource: string, item: Type<unknown> | SheetAdapter): MethodDecorator {
  return applyDecorators(
    SetMetadata(EXPORT_SPEC, { resource, item } satisfies ExportSpec),
    UseInterceptors(ExportInterceptor),
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

@Injectable()
export class ExportInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const format = exportFormat(request);
    if (!format) return next.handle();
    const spec = this.reflector.get<ExportSpec>(EXPORT_SPEC, context.getHandler());
    const query = request.query as Record<string, unknown>;
    delete query.format;
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return new Observable((subscriber) => {
      this.stream(request, spec, format, query, next, reply).then(
        (body) => {
          subscriber.next(body);
          subscriber.complete();
        },
        (err: unknown) => subscriber.error(err),
      );
    });
  }

  /** Reads the first page (a refused query is a 4xx as for JSON), then streams it and the rest. */
  private async stream(
    request: FastifyRequest,
    spec: ExportSpec,
    format: ExportFormat,
    query: Record<string, unknown>,
    next: CallHandler,
    reply: FastifyReply,
  ): Promise<Readable> {
    const item = spec.item;
    const sheetOf = (answer: unknown): SheetPage => {
      if ('sheet' in item) return item.sheet(answer);
      const page = answer as Page<Record<string, unknown>>;
      return { columns: exportColumns(item), items: page.items, nextPage: page.nextPage };
    };
    const pageOf = async (page: number): Promise<SheetPage> => {
      Object.assign(query, { page: String(page), limit: String(MAX_PAGE_SIZE) });
      return sheetOf(await lastValueFrom(next.handle()));
    };
    const first = await pageOf(1);
    const columns = first.columns;
    const { actor, requestId } = auditContext();
    // The record the list belongs to (an employee's attendance, a payroll's grid), else the list.
    const resourceId = (request.params as Record<string, string> | undefined)?.id ?? spec.resource;
    const filters = Object.fromEntries(Object.entries(query).filter(([k]) => k !== 'page' && k !== 'limit'));
    const audit = (rows: number) =>
      runAs(actor, requestId, () =>
        transaction(this.dataSource, (em) =>
          recordAudit(em, {
            action: 'export',
            resource: spec.resource,
            resourceId: spec.resource,
            after: { format, rows, query: filters },
          }),
        ),
      );
    const out = new PassThrough();
    const writer = format === 'csv' ? await csvWriter(out, columns) : await xlsxWriter(out, columns, spec.resource);
    let audited = false;
    const auditOnce = async (rows: number) => {
      if (audited) return;
      audited = true;
      await audit(rows);
    };
    const pump = async () => {
      let rows = 0;
      try {
        let page = first;
        for (let n = 1; !out.destroyed; n++) {
          if (n > 1) page = await pageOf(n);
          await writer.rows(page.items);
          rows += page.items.length;
          if (page.nextPage === null || !page.items.length) break;
        }
        // Recorded before the last bytes go: a client that has the whole file finds the entry.
        await auditOnce(rows);
        if (!out.destroyed) await writer.end();
      } finally {
        // However the download ends (a client that hangs up received `rows` at most).
        await auditOnce(rows);
      }
    };
    pump().catch((err: Error) => out.destroy(err));
    const day = new Date().toISOString().slice(0, 10);
    reply
      .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_TYPE)
      .header(
        'content-disposition',
        `attachment; filename="${spec.resource.replace(/[^\w-]/g, '-')}${resourceId === spec.resource ? '' : `-${resourceId.replace(/\D/g, '')}`}-${day}.${format}"`,
      );
    return out;
  }
}

import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { declareImportKind } from '../common/import/import-kinds.constants';
import { ImportColumn, ImportKind, ImportKinds, ImportRow, ImportSession, RowDetail } from '../common/import/import-kind';
import { bodyOf, rowByRow } from '../common/import/row-by-row';
import { CreateExchangeRateDto } from './dto/expenses.dto';
import { ExpensesSetupService } from './expenses-setup.service';

/** Declared when this file loads (common/import/import-kinds.constants.ts). */
const EXCHANGE_RATES_IMPORT = declareImportKind('exchange-rates');

export const EXCHANGE_RATE_COLUMNS: readonly ImportColumn[] = [
  { field: 'currency', label: 'Currency', type: 'text', example: 'USD', required: true, note: 'ISO 4217' },
  { field: 'date', label: 'Date', type: 'date', example: '2026-12-01', required: true },
  {
    field: 'rate',
    label: 'Rate',
    type: 'text',
    example: '0.9231',
    required: true,
    note: 'units of the company currency per unit of the currency',
  },
];

/**
 * The `exchange-rates` import kind (issue 68): each row sets the rate of a currency on a day, as
 * POST /exchange-rates does with its rules, replacing the day's rate when there is one (a bank's
 * feed imported again changes what moved).
 */
@Injectable()
export class ExchangeRatesImport implements ImportKind, OnModuleInit {
  readonly kind = EXCHANGE_RATES_IMPORT;
  readonly columns = EXCHANGE_RATE_COLUMNS;
  readonly batchSize = 500;
  readonly validatesWithoutWriting = false;

  constructor(
    private readonly kinds: ImportKinds,
    private readonly setup: ExpensesSetupService,
  ) {}

  onModuleInit(): void {
    this.kinds.register(this);
  }

  start(): Promise<ImportSession> {
    return Promise.resolve({
      batch: (em: EntityManager, rows: ImportRow[]): Promise<RowDetail[]> =>
        rowByRow(
          em,
          rows,
          CreateExchangeRateDto,
          (row) => bodyOf(row, EXCHANGE_RATE_COLUMNS),
          (dto) => this.setup.setRate(dto),
        ),
    });
  }
}

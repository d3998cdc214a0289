import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { CurrentUser, Levels } from '../../common/auth/access.decorators';
import { AuthUser } from '../../common/auth/auth-user';
import { crudController } from '../../common/crud/crud.controller';
import { ApiArrayEnvelope, ApiErrors, ApiOkEnvelope } from '../../common/envelope/api-envelope.decorators';
import { DomainException } from '../../common/errors/domain.exception';
import { EXPORT_EXTENSION, exportColumns } from '../../common/export/exportable';
import { sendSheet } from '../../common/export/sheet-file';
import { XLSX_TYPE } from '../../common/export/sheet-writers';
import { IdParamPipe } from '../../common/validation/id-param.pipe';
import { BankFileService } from './bank-file.service';
import {
  BankFileDto,
  BankFileQueryDto,
  CreatePayrollAccountDto,
  JournalDto,
  JournalLineDto,
  JournalQueryDto,
  PayrollAccountDto,
  RegisterQueryDto,
  UpdatePayrollAccountDto,
} from './books.dto';
import { PAYROLL_ACCOUNT_LIST, PayrollAccountsService } from './payroll-accounts.service';
import { PayrollBooksService } from './payroll-books.service';

const ADMINS = ['Admin', 'Restricted Admin'] as const;
const SHEET_RESPONSE = {
  status: 200,
  description: 'A CSV or XLSX attachment',
  content: {
    'text/csv': { schema: { type: 'string' as const } },
    [XLSX_TYPE]: { schema: { type: 'string' as const, format: 'binary' } },
  },
};

export const PayrollAccountsController = crudController<PayrollAccountsService>({
  path: 'payroll_config/accounts',
  label: 'Payroll account',
  tag: 'Payroll books',
  dto: PayrollAccountDto,
  createDto: CreatePayrollAccountDto,
  updateDto: UpdatePayrollAccountDto,
  service: PayrollAccountsService,
  crud: (s) => s.crud,
  listSpec: PAYROLL_ACCOUNT_LIST,
  readers: [...ADMINS],
  note: 'One mapping per payroll column (409 DUPLICATE); search matches the accounts. Both accounts null: the column is not posted.',
});

@ApiTags('Payroll books')
@ApiBearerAuth()
@Controller('payroll_config/payrolls/:id')
export class PayrollBooksController {
  constructor(
    private readonly bankFiles: BankFileService,
    private readonly books: PayrollBooksService,
  ) {}

  @Post('bank-files')
  @Levels('Admin')
  @ApiOperation({
    summary:
      'Make the SEPA credit transfer file of a Completed payroll (pain.001.001.03 or .09), validated against its ISO 20022 schema',
    description:
      "One transfer per employee with a positive net pay (the payroll's net_column) to its primary bank account, from the settings " +
      '"Company IBAN" (and "Company BIC"); NbOfTxs and CtrlSum are its transactions and total. MsgId and EndToEndIds come from the ' +
      'payroll and its revision. The same revision and parameters give the same record (200, made once: 201 the first time), so a ' +
      'payment is never filed twice by a retry; the bytes are kept and downloaded from .../bank-files/{fid}/file. 409 ' +
      'MISSING_BANK_ACCOUNTS counts the employees without a valid primary account and names the first 50, unless skip_missing is ' +
      'true; 409 INVALID_STATE for a payroll that is not Completed, has no net_column, a company without a valid IBAN, or a file ' +
      'that pays no one; 400 for an execution date in the past or on a weekend. Audited; event payroll.bank_file_created when made. ' +
      'Made a window of employees at a time, validated part by part before it is kept (docs/api/payroll.md, "The books at scale").',
  })
  @ApiOkEnvelope(BankFileDto, 'Made now', 201)
  @ApiOkEnvelope(BankFileDto, 'Made before for the same revision and parameters')
  @ApiErrors(400, 401, 403, 404, 409)
  async createBankFile(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() dto: BankFileQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<BankFileDto> {
    const { record, created } = await this.bankFiles.create(caller, id, dto);
    void reply.status(created ? 201 : 200);
    return record;
  }

  @Get('bank-files')
  @Levels('Admin')
  @ApiOperation({ summary: 'The bank files made for the payroll, newest first' })
  @ApiArrayEnvelope(BankFileDto)
  @ApiErrors(400, 401, 403, 404, 409)
  listBankFiles(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<BankFileDto[]> {
    return this.bankFiles.list(caller, id);
  }

  @Get('bank-files/:fid/file')
  @Levels('Admin')
  @ApiOperation({ summary: 'A bank file as it was made (the pain.001 document); reading it writes nothing' })
  @ApiResponse({
    status: 200,
    description: 'The pain.001 document',
    content: { 'application/xml': { schema: { type: 'string' } } },
  })
  @ApiErrors(400, 401, 403, 404, 409)
  async bankFileBytes(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('fid', new IdParamPipe()) fid: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Readable> {
    const file = await this.bankFiles.download(caller, id, fid);
    void reply
      .header('content-type', 'application/xml; charset=utf-8')
      .header('content-length', String(file.size))
      .header('content-disposition', `attachment; filename="${file.fileName}"`);
    return file.body;
  }

  @Get('bank-file')
  @Levels('Admin')
  @ApiOperation({
    summary: 'Gone: make a bank file with POST .../bank-files, download it from .../bank-files/{fid}/file',
    description: 'A bank file is an act with consequences (a payment): a GET made one each time it was read. 410 GONE.',
    deprecated: true,
  })
  @ApiErrors(400, 401, 403, 404, 410)
  goneBankFile(@Param('id', new IdParamPipe()) id: number, @Query() _query: BankFileQueryDto): never {
    throw new DomainException(
      'GONE',
      `GET .../bank-file is gone: POST /payroll_config/payrolls/${id}/bank-files {format, execution_date, skip_missing} makes the file, GET /payroll_config/payrolls/${id}/bank-files/{fid}/file downloads it`,
    );
  }

  @Get('journal')
  @Levels(...ADMINS)
  @ApiOperation({
    summary: "The payroll's accounting journal (JSON, CSV or XLSX): Σ debit = Σ credit",
    description:
      'Each column mapped at /payroll_config/accounts posts its total (per department with cost_centre department, per currency) ' +
      'on its debit and its credit account. 409 UNMAPPED_COLUMNS names columns with amounts and no mapping; 409 INVALID_STATE for a ' +
      'payroll that is not Completed. A Restricted Admin: the employees of its departments.',
  })
  @ApiOkEnvelope(JournalDto)
  // The same 200 answers JSON (the envelope), or CSV/XLSX with format=csv|xlsx: finish-document adds them.
  @ApiExtension(EXPORT_EXTENSION, 'payroll-journal')
  @ApiErrors(400, 401, 403, 404, 409)
  async journal(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: JournalQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<JournalDto | Readable> {
    const journal = await this.books.journal(caller, id);
    if (!query.format || query.format === 'json') return journal;
    // The line's fields in the DTO's order, debit and credit as amounts (numbers in XLSX).
    const columns = exportColumns(JournalLineDto).map((c) =>
      c.field === 'debit' || c.field === 'credit' ? { ...c, kind: 'amount' as const } : c,
    );
    return sendSheet(
      reply,
      query.format,
      `payroll-${id}-journal`,
      columns,
      journal.lines as unknown as Array<Record<string, unknown>>,
    );
  }

  @Get('register')
  @Levels(...ADMINS)
  @ApiOperation({
    summary: 'The payroll register (CSV or XLSX): the grid by department with subtotals and a company total',
    description:
      'Rows by department, then employee name; `row` is employee, subtotal or total. Scoped as the grid: a Restricted Admin gets the ' +
      'employees of its departments. 409 INVALID_STATE for a payroll that is not Completed.',
  })
  @ApiResponse(SHEET_RESPONSE)
  @ApiErrors(400, 401, 403, 404, 409)
  async register(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: RegisterQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Readable> {
    const { columns, rows } = await this.books.register(caller, id);
    return sendSheet(reply, query.format ?? 'csv', `payroll-${id}-register`, columns, rows);
  }
}

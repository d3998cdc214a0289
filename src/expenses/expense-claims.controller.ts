import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiExtension, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { APPROVAL_DECISION_NOTE, DecisionBodyDto } from '../approvals/dto/approvals.dto';
import { Authenticated, CurrentUser } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { RawResponse } from '../common/envelope/raw-response.decorator';
import { fileConditions, sendFile } from '../common/http/file-response';
import { BodyTypes } from '../common/http/route-config';
import { OPTIONAL_BODY } from '../common/openapi/finish-document';
import { ApiListQuery } from '../common/paging/api-list-query.decorator';
import { Page } from '../common/paging/page';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import {
  CreateExpenseClaimDto,
  ExpenseClaimDeletedDto,
  ExpenseClaimDto,
  ExpenseClaimListQueryDto,
  PayExpenseClaimDto,
  UpdateExpenseClaimDto,
} from './dto/expense-claims.dto';
import { EXPENSE_CLAIM_LIST_SPEC, ExpenseClaimsReader } from './expense-claims.reader';
import { ExpenseClaimsService } from './expense-claims.service';
import { ExpenseReceiptsService } from './expense-receipts.service';

const RECEIPT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'];

/** /expense-claims (issue 68, docs/api/expenses.md). */
@ApiTags('Expenses')
@ApiBearerAuth()
@Controller('expense-claims')
@Authenticated()
export class ExpenseClaimsController {
  constructor(
    private readonly claims: ExpenseClaimsService,
    private readonly reader: ExpenseClaimsReader,
    private readonly receipts: ExpenseReceiptsService,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'Expense claims the caller may see, its own included (Admin: all; Restricted Admin: its departments; Manager: itself and its direct reports; Employee: itself)',
    description: 'Newest first; sortField: id, created_at, submitted_at; filters: employee, status, paid_in.',
  })
  @ApiListEnvelope(ExpenseClaimDto)
  @ApiListQuery(EXPENSE_CLAIM_LIST_SPEC)
  @ApiErrors(400, 401)
  list(@CurrentUser() caller: AuthUser, @Query() query: ExpenseClaimListQueryDto): Promise<Page<ExpenseClaimDto>> {
    return this.reader.list(caller, query);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start a claim (Draft), for oneself; Admins and Restricted Admins in scope may name the employee',
    description:
      'Each item is converted into the claim’s currency (the employee’s payroll currency) at the rate of its date or the last before (none: 400 naming items.N.currency), half up to the minor unit.',
  })
  @ApiOkEnvelope(ExpenseClaimDto)
  @ApiErrors(400, 401, 403, 404)
  create(@CurrentUser() caller: AuthUser, @Body() dto: CreateExpenseClaimDto): Promise<ExpenseClaimDto> {
    return this.claims.create(caller, dto);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One claim, with its items and approval chain (also for its approvers)' })
  @ApiOkEnvelope(ExpenseClaimDto)
  @ApiErrors(400, 401, 404)
  get(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<ExpenseClaimDto> {
    return this.reader.get(caller, id);
  }

  @Put(':id')
  @ApiOperation({
    summary: 'Change a Draft or Rejected claim (the employee or an Admin of it); it becomes Draft',
    description:
      '`items` replaces the items: one with the id of an item of the claim keeps it and its receipt; one without is new.',
  })
  @ApiOkEnvelope(ExpenseClaimDto)
  @ApiErrors(400, 401, 403, 404, 409)
  update(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() dto: UpdateExpenseClaimDto,
  ): Promise<ExpenseClaimDto> {
    return this.claims.update(caller, id, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a Draft claim (the employee or an Admin of it); later ones are cancelled' })
  @ApiOkEnvelope(ExpenseClaimDeletedDto)
  @ApiErrors(400, 401, 403, 404, 409)
  remove(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<ExpenseClaimDeletedDto> {
    return this.claims.remove(caller, id);
  }

  @Post(':id/submit')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Submit a Draft or Rejected claim for approval (emits expense.submitted)',
    description:
      'Refused (400 naming items.N.*) when an item is above its category’s max_amount or lacks a receipt its category requires. The chain is the policy of kind expense whose min_amount the total reaches (in the company currency, at today’s rate).',
  })
  @ApiOkEnvelope(ExpenseClaimDto)
  @ApiErrors(400, 401, 403, 404, 409)
  submit(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<ExpenseClaimDto> {
    return this.claims.submit(caller, id);
  }

  @Post(':id/approve')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Approve the open step of a submitted claim (its approvers, or an Admin; never one’s own)',
    description: APPROVAL_DECISION_NOTE,
  })
  @ApiExtension(OPTIONAL_BODY, true)
  @ApiOkEnvelope(ExpenseClaimDto)
  @ApiErrors(400, 401, 403, 404, 409)
  approve(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() body: DecisionBodyDto,
  ): Promise<ExpenseClaimDto> {
    return this.claims.decide(caller, id, 'Approved', body?.comment);
  }

  @Post(':id/reject')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Reject a submitted claim at its open step (its approvers, or an Admin; never one’s own)',
    description: APPROVAL_DECISION_NOTE,
  })
  @ApiExtension(OPTIONAL_BODY, true)
  @ApiOkEnvelope(ExpenseClaimDto)
  @ApiErrors(400, 401, 403, 404, 409)
  reject(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() body: DecisionBodyDto,
  ): Promise<ExpenseClaimDto> {
    return this.claims.decide(caller, id, 'Rejected', body?.comment);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel a claim not yet Paid (the employee or an Admin of it; emits expense.decided)',
    description: 'A payroll processed with it cannot complete until it is processed again.',
  })
  @ApiOkEnvelope(ExpenseClaimDto)
  @ApiErrors(400, 401, 403, 404, 409)
  cancel(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<ExpenseClaimDto> {
    return this.claims.cancel(caller, id);
  }

  @Post(':id/pay')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Mark an Approved claim paid outside payroll, with the payment’s reference (an Admin of the employee; emits expense.paid)',
    description: 'A payroll processed with it cannot complete until it is processed again.',
  })
  @ApiOkEnvelope(ExpenseClaimDto)
  @ApiErrors(400, 401, 403, 404, 409)
  pay(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() dto: PayExpenseClaimDto,
  ): Promise<ExpenseClaimDto> {
    return this.claims.pay(caller, id, dto);
  }

  @Put(':id/items/:item/receipt')
  @BodyTypes(['multipart/form-data'])
  @ApiOperation({
    summary: 'Put the receipt of an item of a Draft or Rejected claim (the employee or an Admin of it)',
    description:
      'multipart/form-data with a `file` part: a PDF, JPEG or PNG as its bytes say (415 otherwise), at most 10 MiB (413). Kept as a document of the employee (type Receipt); a receipt it replaces stays among them.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiOkEnvelope(ExpenseClaimDto)
  @ApiErrors(400, 401, 403, 404, 409, 413, 415)
  putReceipt(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('item', new IdParamPipe()) item: number,
    @Req() req: FastifyRequest,
  ): Promise<ExpenseClaimDto> {
    return this.receipts.put(caller, id, item, { headers: req.headers, body: req.body });
  }

  @Get(':id/items/:item/receipt')
  @RawResponse()
  @ApiOperation({
    summary: 'The receipt of an item, for whoever may read the claim (its approvers too); each download is audited',
  })
  @ApiResponse({
    status: 200,
    description: 'The file, as an attachment, with its ETag; Range and If-None-Match as for documents',
    content: Object.fromEntries(RECEIPT_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
  })
  @ApiResponse({ status: 206, description: 'The range asked for' })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match)' })
  @ApiErrors(400, 401, 404, 416)
  async receipt(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('item', new IdParamPipe()) item: number,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Readable | string> {
    return sendFile(reply, await this.receipts.file(caller, id, item, fileConditions(req)));
  }
}

/** GET /employees/{id}/expense-claims. */
@ApiTags('Expenses')
@ApiBearerAuth()
@Controller('employees/:id/expense-claims')
@Authenticated()
export class EmployeeExpenseClaimsController {
  constructor(private readonly reader: ExpenseClaimsReader) {}

  @Get()
  @ApiOperation({ summary: "The employee's expense claims, newest first" })
  @ApiListEnvelope(ExpenseClaimDto)
  @ApiListQuery(EXPENSE_CLAIM_LIST_SPEC)
  @ApiErrors(400, 401, 404)
  list(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: ExpenseClaimListQueryDto,
  ): Promise<Page<ExpenseClaimDto>> {
    return this.reader.list(caller, query, id);
  }
}

import { Exportable } from '../../common/export/exportable';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { RawResponse } from '../../common/envelope/raw-response.decorator';
import { fileConditions, sendFile } from '../../common/http/file-response';
import { Authenticated, CurrentUser, Levels } from '../../common/auth/access.decorators';
import { AuthUser } from '../../common/auth/auth-user';
import { DeletedDto } from '../../common/crud/crud.controller';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../../common/envelope/api-envelope.decorators';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { ListQueryDto } from '../../common/paging/list-query.dto';
import { Page } from '../../common/paging/page';
import { ApiListQuery } from '../../common/paging/api-list-query.decorator';
import { IdParamPipe } from '../../common/validation/id-param.pipe';
import {
  PayrollDto,
  PayslipDto,
  PayslipTemplateDto,
  PreviewTemplateDto,
  RenderedDto,
  SavePayslipTemplateDto,
  SendPayslipDto,
  SendPayslipsDto,
  SendPayslipsResultDto,
} from '../dto/payroll-run.dto';
import { SAMPLE_PAYSLIP_CONTEXT } from '../dto/payslip-context';
import { PayslipsService } from './payslips.service';
import { PayslipDeliveryService } from './payslip-delivery.service';
import { PayslipTemplatesService } from './payslip-templates.service';
import { EMPLOYEE_PAYSLIP_LIST_SPEC, PAYROLL_PAYSLIP_LIST_SPEC, TEMPLATE_LIST_SPEC } from '../entities/payroll-lists';

const ADMINS = ['Admin', 'Restricted Admin'] as const;
const fieldsOf = (o: object) => Object.keys(o).join(', ');
const TEMPLATE_HELP =
  `HTML with {{path}} values, always escaped, over this data (PayslipContextDto): employee.{${fieldsOf(SAMPLE_PAYSLIP_CONTEXT.employee)}} ` +
  `(job_title, department, pay_grade by name; currency and pay_frequency the payroll employee's), ` +
  `payroll.{${fieldsOf(SAMPLE_PAYSLIP_CONTEXT.payroll)}}, company.name, and in {{#each columns}} name and value. ` +
  'Also this, ../, @index, @first, @last, @key, @root; blocks #each, #if, #unless with else, at most 4 deep. A name ' +
  'outside the data, or an object or list where a value is printed → 400 with line and column; so are partials, inline ' +
  'partials, decorators, triple braces, other helpers, hashes and literals, and more than 2 000 expressions or 100 000 ' +
  'characters. A render stops at 100 000 steps, 10 000 loop iterations or 1 000 000 characters: a preview past a bound → 400.';

const PDF_HELP =
  "The PDF rendered from the payslip by headless Chromium when the payslips were generated, kept among the employee's " +
  'documents (type Payslip); encrypted when the setting "Payslip PDF Password" says so. As an attachment with an ETag; ' +
  'each download is in the audit log. 503 PDF_UNAVAILABLE when this installation has no browser (the message says how to ' +
  'install one); 404 for a payslip generated without one.';

const SEND_HELP =
  "One e-mail per payslip to the employee's work e-mail (or private, per the setting Payslip E-mail Address), subject and " +
  'body from the settings Payslip E-mail Subject and Body (Handlebars over employee, payroll and company), the PDF attached. ' +
  'Queued at once, or held until send_after. Each payslip shows delivery_status: queued, then sent (delivered_at) or failed ' +
  "(delivery_error: the SMTP server's answer); no_address when the employee has no such e-mail; unknown when the sending " +
  'process stopped during the SMTP call (not sent again by itself). A payroll-wide request leaves out payslips sent, queued ' +
  'or unknown; with Idempotency-Key a repeated request sends nothing more. 503 PDF_UNAVAILABLE without a browser, ' +
  '503 MAIL_UNAVAILABLE without SMTP_URL.';

const PDF_RESPONSE = {
  status: 200,
  description: 'The PDF',
  content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
};

@ApiTags('Payslips')
@ApiBearerAuth()
@Controller('payroll_config/payslip-templates')
export class PayslipTemplatesController {
  constructor(private readonly templates: PayslipTemplatesService) {}

  @Get()
  @Levels(...ADMINS)
  @ApiOperation({ summary: 'Payslip templates' })
  @ApiListQuery(TEMPLATE_LIST_SPEC)
  @ApiListEnvelope(PayslipTemplateDto)
  @ApiErrors(400, 401, 403)
  list(@Query() query: ListQueryDto): Promise<Page<PayslipTemplateDto>> {
    return this.templates.listTemplates(query);
  }

  @Post()
  @HttpCode(200)
  @Levels('Admin')
  @ApiOperation({ summary: 'Create a template, or with id update it (Admin)', description: TEMPLATE_HELP })
  @ApiOkEnvelope(PayslipTemplateDto)
  @ApiErrors(400, 401, 403, 404, 409)
  save(@Body() dto: SavePayslipTemplateDto): Promise<PayslipTemplateDto> {
    return this.templates.saveTemplate(dto);
  }

  @Post('preview')
  @HttpCode(200)
  @Levels(...ADMINS)
  @ApiOperation({ summary: 'Render a template definition without saving it', description: TEMPLATE_HELP })
  @ApiOkEnvelope(RenderedDto)
  @ApiErrors(400, 401, 403)
  previewDraft(@CurrentUser() caller: AuthUser, @Body() dto: PreviewTemplateDto): Promise<RenderedDto> {
    return this.templates.preview(caller, dto.content, dto.data);
  }

  @Get(':id')
  @Levels(...ADMINS)
  @ApiOperation({ summary: 'One template' })
  @ApiOkEnvelope(PayslipTemplateDto)
  @ApiErrors(400, 401, 403, 404)
  get(@Param('id', new IdParamPipe()) id: number): Promise<PayslipTemplateDto> {
    return this.templates.getTemplate(id);
  }

  @Get(':id/preview')
  @Levels(...ADMINS)
  @ApiOperation({ summary: "Render a saved template with the first processed payroll's first employee, or placeholders" })
  @ApiOkEnvelope(RenderedDto)
  @ApiErrors(400, 401, 403, 404)
  preview(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<RenderedDto> {
    return this.templates.previewSaved(caller, id);
  }

  @Delete(':id')
  @Levels('Admin')
  @ApiOperation({ summary: 'Delete a template no payroll uses (409 IN_USE otherwise)' })
  @ApiOkEnvelope(DeletedDto)
  @ApiErrors(400, 401, 403, 404, 409)
  remove(@Param('id', new IdParamPipe()) id: number): Promise<DeletedDto> {
    return this.templates.removeTemplate(id);
  }
}

@ApiTags('Payslips')
@ApiBearerAuth()
@Controller('payroll_config/payrolls/:id')
export class PayrollPayslipsController {
  constructor(
    private readonly payslips: PayslipsService,
    private readonly delivery: PayslipDeliveryService,
  ) {}

  @Post('generate-payslips')
  @HttpCode(200)
  @Levels(...ADMINS)
  @Idempotent()
  @ApiOperation({
    summary: 'Finalize: Processed → Completing; a job renders one payslip per employee → Completed (409 INVALID_STATE otherwise)',
  })
  @ApiOkEnvelope(PayrollDto)
  @ApiErrors(400, 401, 403, 404, 409)
  generate(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<PayrollDto> {
    return this.payslips.startGenerate(caller, id);
  }

  @Post('send-payslips')
  @HttpCode(200)
  @Levels(...ADMINS)
  @Idempotent()
  @ApiOperation({
    summary: 'E-mail the payslips of a Completed payroll, each with its PDF attached (409 INVALID_STATE otherwise)',
    description: SEND_HELP,
  })
  @ApiOkEnvelope(SendPayslipsResultDto)
  @ApiErrors(400, 401, 403, 404, 409, 503)
  send(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() dto: SendPayslipsDto,
  ): Promise<SendPayslipsResultDto> {
    return this.delivery.send(caller, id, dto);
  }

  @Post('payslips/:payslipId/send')
  @HttpCode(200)
  @Levels(...ADMINS)
  @Idempotent()
  @ApiOperation({
    summary: 'E-mail one payslip (again): whatever its delivery status, unless one is queued (409)',
    description: SEND_HELP,
  })
  @ApiOkEnvelope(SendPayslipsResultDto)
  @ApiErrors(400, 401, 403, 404, 409, 503)
  sendOne(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('payslipId', new IdParamPipe()) payslipId: number,
    @Body() dto: SendPayslipDto,
  ): Promise<SendPayslipsResultDto> {
    return this.delivery.sendOne(caller, id, payslipId, dto);
  }

  @Post('delete-payslips')
  @HttpCode(200)
  @Levels(...ADMINS)
  @ApiOperation({ summary: 'Completed → Processed, the payslips removed (409 INVALID_STATE otherwise)' })
  @ApiOkEnvelope(PayrollDto)
  @ApiErrors(400, 401, 403, 404, 409)
  deleteAll(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<PayrollDto> {
    return this.payslips.deleteAll(caller, id);
  }

  @Get('payslips/:payslipId/pdf')
  @Levels(...ADMINS)
  @RawResponse()
  @ApiOperation({ summary: "A payslip's PDF", description: PDF_HELP })
  @ApiResponse(PDF_RESPONSE)
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match)' })
  @ApiErrors(400, 401, 403, 404, 503)
  async pdf(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('payslipId', new IdParamPipe()) payslipId: number,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Readable | string> {
    return sendFile(reply, await this.payslips.pdfOfPayroll(caller, id, payslipId, fileConditions(req)));
  }

  @Get('payslips')
  @Levels(...ADMINS)
  @ApiOperation({ summary: "The payroll's payslips" })
  @ApiListQuery(PAYROLL_PAYSLIP_LIST_SPEC)
  @ApiListEnvelope(PayslipDto)
  @Exportable('payslips', PayslipDto)
  @ApiErrors(400, 401, 403, 404)
  list(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: ListQueryDto,
  ): Promise<Page<PayslipDto>> {
    return this.payslips.ofPayroll(caller, id, query);
  }
}

@ApiTags('Payslips')
@ApiBearerAuth()
@Controller('employees/:id/payslips')
export class EmployeePayslipsController {
  constructor(private readonly payslips: PayslipsService) {}

  @Get()
  @Authenticated()
  @ApiOperation({
    summary: "The employee's payslips, newest first (the employee itself, or an Admin / Restricted Admin in scope; others 404)",
  })
  @ApiListQuery(EMPLOYEE_PAYSLIP_LIST_SPEC)
  @ApiListEnvelope(PayslipDto)
  @Exportable('payslips', PayslipDto)
  @ApiErrors(400, 401, 404)
  list(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: ListQueryDto,
  ): Promise<Page<PayslipDto>> {
    return this.payslips.ofEmployee(caller, id, query);
  }

  @Get(':payslipId/pdf')
  @Authenticated()
  @RawResponse()
  @ApiOperation({
    summary: "A payslip's PDF (the employee itself, or an Admin / Restricted Admin in scope; others 404)",
    description: PDF_HELP,
  })
  @ApiResponse(PDF_RESPONSE)
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match)' })
  @ApiErrors(400, 401, 404, 503)
  async pdf(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('payslipId', new IdParamPipe()) payslipId: number,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Readable | string> {
    return sendFile(reply, await this.payslips.pdfOfEmployee(caller, id, payslipId, fileConditions(req)));
  }

  @Get(':payslipId')
  @Authenticated()
  @ApiOperation({ summary: 'One payslip of the employee' })
  @ApiOkEnvelope(PayslipDto)
  @ApiErrors(400, 401, 404)
  get(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('payslipId', new IdParamPipe()) payslipId: number,
  ): Promise<PayslipDto> {
    return this.payslips.oneOfEmployee(caller, id, payslipId);
  }
}

import { Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { Authenticated, CurrentUser } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { ApiErrors, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { RawResponse } from '../common/envelope/raw-response.decorator';
import { sendFile } from '../common/http/file-response';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { PersonalDataExportDto } from './dto/personal-data-export.dto';
import { PersonalDataExportsService } from './personal-data-exports.service';

/** Subject-access exports (issue 69, GDPR art. 15; docs/api/privacy.md). */
@ApiTags('Privacy')
@ApiBearerAuth()
@Controller()
@Authenticated()
export class PersonalDataExportsController {
  constructor(private readonly exports: PersonalDataExportsService) {}

  @Post('employees/:id/personal-data-exports')
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Ask for everything the service holds about an employee, as one ZIP (the employee itself, or an Admin); a job builds it',
    description:
      'The ZIP holds employee.json (the record, its history, custom fields and user accounts without password hashes), bank-accounts.json ' +
      '(whole IBANs), leave.json, attendance.json, timesheets.json, expenses.json, payroll.json (salary and every payroll cell), ' +
      'checklists.json, documents/ and payslips/ (the files), audit.json, ' +
      'notifications.json and a README.txt saying what each holds. Kept 7 days (expires_at). 404 for an employee the caller does not ' +
      'see; 403 for another employee’s data unless Admin; 409 while an export of the employee is Queued or Running (details name its id). ' +
      'Emits personal_data.exported once Ready.',
  })
  @ApiOkEnvelope(PersonalDataExportDto, 'Accepted: the export, Queued', 202)
  @ApiErrors(400, 401, 403, 404, 409)
  request(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<PersonalDataExportDto> {
    return this.exports.request(caller, id);
  }

  @Get('personal-data-exports/:id')
  @ApiOperation({ summary: 'An export, for whoever asked for it and the Admins (404 for anyone else)' })
  @ApiOkEnvelope(PersonalDataExportDto)
  @ApiErrors(400, 401, 404)
  get(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<PersonalDataExportDto> {
    return this.exports.get(caller, id);
  }

  @Get('personal-data-exports/:id/file')
  @RawResponse()
  @ApiOperation({
    summary: 'The ZIP of a Ready export, for whoever asked for it and the Admins; each download is audited',
    description:
      '409 INVALID_STATE while it is Queued or Running, once Failed, and once Expired (its file removed after 7 days).',
  })
  @ApiResponse({
    status: 200,
    description: 'The ZIP, as an attachment',
    content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiErrors(400, 401, 404, 409)
  async file(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Readable | string> {
    return sendFile(reply, await this.exports.file(caller, id));
  }
}

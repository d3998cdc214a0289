import { ApiListQuery } from '../common/paging/api-list-query.decorator';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OPTIONAL_BODY } from '../common/openapi/finish-document';
import { Authenticated, CurrentUser } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { Exportable } from '../common/export/exportable';
import { APPROVAL_DECISION_NOTE, DecisionBodyDto } from '../approvals/dto/approvals.dto';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { Page } from '../common/paging/page';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { crudController } from '../common/crud/crud.controller';
import {
  CreateProjectDto,
  CreateTimeEntryDto,
  ProjectDto,
  TimeEntryDeletedDto,
  TimeEntryDto,
  TimeEntryRowDto,
  TimesheetListQueryDto,
  UpdateProjectDto,
  UpdateTimeEntryDto,
} from './dto/timesheet.dto';
import { TimesheetsService, TIME_ENTRY_LIST_SPEC } from './timesheets.service';

export const ProjectsController = crudController<TimesheetsService>({
  path: 'projects',
  label: 'Project',
  tag: 'Timesheets',
  dto: ProjectDto,
  createDto: CreateProjectDto,
  updateDto: UpdateProjectDto,
  service: TimesheetsService,
  crud: (s) => s.projects,
});

@ApiTags('Timesheets')
@ApiBearerAuth()
@Controller('timesheets')
export class TimesheetsController {
  constructor(private readonly timesheets: TimesheetsService) {}

  @Get()
  @Authenticated()
  @ApiOperation({
    summary:
      'Time entries the caller may see, its own included (Admin: all; Restricted Admin: its departments; Manager: itself and its direct reports; Employee: itself)',
    description: 'Newest first; sortField: id, date; filters: employee, project, status; from/to.',
  })
  @ApiListEnvelope(TimeEntryDto)
  @Exportable('timesheets', TimeEntryRowDto)
  @ApiListQuery(TIME_ENTRY_LIST_SPEC)
  @ApiErrors(400, 401)
  list(@CurrentUser() caller: AuthUser, @Query() query: TimesheetListQueryDto): Promise<Page<TimeEntryDto>> {
    return this.timesheets.list(caller, query);
  }

  @Post()
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Record time (Draft), for oneself; Admins and Restricted Admins in scope may name the employee',
    description: 'start/end HH:MM on date; no overlap with the same day’s entries (409).',
  })
  @ApiOkEnvelope(TimeEntryDto)
  @ApiErrors(400, 401, 403, 404, 409)
  create(@CurrentUser() caller: AuthUser, @Body() dto: CreateTimeEntryDto): Promise<TimeEntryDto> {
    return this.timesheets.create(caller, dto);
  }

  @Get(':id')
  @Authenticated()
  @ApiOperation({ summary: 'One time entry' })
  @ApiOkEnvelope(TimeEntryDto)
  @ApiErrors(400, 401, 404)
  get(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<TimeEntryDto> {
    return this.timesheets.get(caller, id);
  }

  @Put(':id')
  @Authenticated()
  @ApiOperation({ summary: 'Change a Draft or Rejected entry (the employee or an Admin); it becomes Draft' })
  @ApiOkEnvelope(TimeEntryDto)
  @ApiErrors(400, 401, 403, 404, 409)
  update(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() dto: UpdateTimeEntryDto,
  ): Promise<TimeEntryDto> {
    return this.timesheets.update(caller, id, dto);
  }

  @Delete(':id')
  @Authenticated()
  @ApiOperation({ summary: 'Delete a Draft or Rejected entry (the employee or an Admin)' })
  @ApiOkEnvelope(TimeEntryDeletedDto)
  @ApiErrors(400, 401, 403, 404, 409)
  remove(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<TimeEntryDeletedDto> {
    return this.timesheets.remove(caller, id);
  }

  @Post(':id/submit')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({ summary: 'Submit a Draft or Rejected entry for approval (emits timesheet.submitted)' })
  @ApiOkEnvelope(TimeEntryDto)
  @ApiErrors(400, 401, 403, 404, 409)
  submit(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<TimeEntryDto> {
    return this.timesheets.submit(caller, id);
  }

  @Post(':id/approve')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Approve the open step of a submitted entry (its approvers, or an Admin; never one’s own)',
    description: APPROVAL_DECISION_NOTE,
  })
  @ApiExtension(OPTIONAL_BODY, true)
  @ApiOkEnvelope(TimeEntryDto)
  @ApiErrors(400, 401, 403, 404, 409)
  approve(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() body: DecisionBodyDto,
  ): Promise<TimeEntryDto> {
    return this.timesheets.decide(caller, id, 'Approved', body?.comment);
  }

  @Post(':id/reject')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Reject a submitted entry at its open step (its approvers, or an Admin; never one’s own)',
    description: APPROVAL_DECISION_NOTE,
  })
  @ApiExtension(OPTIONAL_BODY, true)
  @ApiOkEnvelope(TimeEntryDto)
  @ApiErrors(400, 401, 403, 404, 409)
  reject(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() body: DecisionBodyDto,
  ): Promise<TimeEntryDto> {
    return this.timesheets.decide(caller, id, 'Rejected', body?.comment);
  }
}

@ApiTags('Timesheets')
@ApiBearerAuth()
@Controller('employees/:id/timesheets')
export class EmployeeTimesheetsController {
  constructor(private readonly timesheets: TimesheetsService) {}

  @Get()
  @Authenticated()
  @ApiOperation({ summary: "The employee's time entries, newest first" })
  @ApiListEnvelope(TimeEntryDto)
  @Exportable('timesheets', TimeEntryRowDto)
  @ApiListQuery(TIME_ENTRY_LIST_SPEC)
  @ApiErrors(400, 401, 404)
  list(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: TimesheetListQueryDto,
  ): Promise<Page<TimeEntryDto>> {
    return this.timesheets.list(caller, query, id);
  }
}

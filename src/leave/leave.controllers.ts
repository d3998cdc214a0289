import { ApiListQuery } from '../common/paging/api-list-query.decorator';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiExtension, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OPTIONAL_BODY } from '../common/openapi/finish-document';
import { Authenticated, CurrentUser, Levels } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { Exportable } from '../common/export/exportable';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { crudController, CrudControllerSpec } from '../common/crud/crud.controller';
import {
  CreateLeavePeriodDto,
  CreateLeaveRequestDto,
  CreateLeaveTypeDto,
  EntitlementDto,
  LeaveDeletedDto,
  LeaveListQueryDto,
  LeavePeriodDto,
  LeaveRequestDto,
  LeaveRequestRowDto,
  LeaveSummaryDto,
  LeaveTypeDto,
  SetEntitlementDto,
  UpdateLeavePeriodDto,
  UpdateLeaveTypeDto,
} from './dto/leave.dto';
import { LEAVE_LIST_SPEC } from './leave-request-views';
import { APPROVAL_DECISION_NOTE, DecisionBodyDto } from '../approvals/dto/approvals.dto';
import { LeaveRequestsService } from './leave-requests.service';
import { ENTITLEMENT_SPEC, LEAVE_PERIOD_LIST, LeaveSetupService } from './leave-setup.service';

/** Leave's reference-like tables through the shared CRUD controller. */
const setup = (spec: Omit<CrudControllerSpec<LeaveSetupService>, 'service' | 'tag'>) =>
  crudController<LeaveSetupService>({ ...spec, tag: 'Leave', service: LeaveSetupService });

export const LEAVE_SETUP_CONTROLLERS = [
  setup({
    path: 'leave-types',
    label: 'Leave type',
    dto: LeaveTypeDto,
    createDto: CreateLeaveTypeDto,
    updateDto: UpdateLeaveTypeDto,
    crud: (s) => s.types,
  }),
  setup({
    path: 'leave-periods',
    label: 'Leave period',
    dto: LeavePeriodDto,
    createDto: CreateLeavePeriodDto,
    updateDto: UpdateLeavePeriodDto,
    crud: (s) => s.periods,
    listSpec: LEAVE_PERIOD_LIST,
    note: 'Periods never overlap.',
  }),
];

@ApiTags('Leave')
@ApiBearerAuth()
@Controller('leave-entitlements')
export class LeaveEntitlementsController {
  constructor(private readonly setup: LeaveSetupService) {}

  @Get()
  @Authenticated()
  @ApiOperation({
    summary: 'Entitlements',
    description:
      "The entitlements of the employees the caller may list: an Admin all, a Restricted Admin its departments', a " +
      "Manager its own and its direct reports', an Employee its own. filters.employee narrows that down.",
  })
  @ApiListEnvelope(EntitlementDto)
  @Exportable('leave-entitlements', EntitlementDto)
  @ApiListQuery(ENTITLEMENT_SPEC)
  @ApiErrors(400, 401, 404)
  list(@CurrentUser() caller: AuthUser, @Query() query: ListQueryDto): Promise<Page<EntitlementDto>> {
    return this.setup.listEntitlements(caller, query);
  }

  @Post()
  @HttpCode(200)
  @Levels('Admin', 'Restricted Admin')
  @ApiOperation({ summary: 'Set the days of an employee for a leave type and period (creates or replaces)' })
  @ApiOkEnvelope(EntitlementDto)
  @ApiErrors(400, 401, 403, 404)
  set(@CurrentUser() caller: AuthUser, @Body() dto: SetEntitlementDto): Promise<EntitlementDto> {
    return this.setup.setEntitlement(caller, dto);
  }

  @Delete(':id')
  @Levels('Admin', 'Restricted Admin')
  @ApiOperation({ summary: 'Remove an entitlement (the type default applies again)' })
  @ApiOkEnvelope(LeaveDeletedDto)
  @ApiErrors(400, 401, 403, 404)
  remove(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<LeaveDeletedDto> {
    return this.setup.removeEntitlement(caller, id);
  }
}

@ApiTags('Leave')
@ApiBearerAuth()
@Controller('leaves')
export class LeavesController {
  constructor(private readonly leaves: LeaveRequestsService) {}

  @Get()
  @Authenticated()
  @ApiOperation({
    summary:
      'Leave requests the caller may see, its own included (Admin: all; Restricted Admin: its departments; Manager: itself and its direct reports; Employee: itself)',
    description: 'Newest first; sortField: id, date_start; filters: employee, leave_type, status; from/to.',
  })
  @ApiListEnvelope(LeaveRequestDto)
  @Exportable('leaves', LeaveRequestRowDto)
  @ApiListQuery(LEAVE_LIST_SPEC)
  @ApiErrors(400, 401, 403)
  list(@CurrentUser() caller: AuthUser, @Query() query: LeaveListQueryDto): Promise<Page<LeaveRequestDto>> {
    return this.leaves.list(caller, query);
  }

  @Post()
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Apply for leave (for oneself; Admins and Restricted Admins in scope may name the employee)',
    description:
      'days = working days (the Work Week setting, holidays excluded), 0.5 with half_day. One leave period per request. ' +
      '409 LEAVE_OVERLAP with your pending or approved leave; 400 INSUFFICIENT_BALANCE unless the type allows negative.',
  })
  @ApiBody({
    type: CreateLeaveRequestDto,
    examples: {
      week: {
        summary: 'A week of annual leave',
        value: { leave_type: 1, date_start: '2027-03-08', date_end: '2027-03-12', reason: 'Family visit' },
      },
      halfDay: {
        summary: 'A half day',
        value: { leave_type: 1, date_start: '2027-03-19', date_end: '2027-03-19', half_day: true },
      },
    },
  })
  @ApiOkEnvelope(LeaveRequestDto)
  @ApiErrors(400, 401, 403, 404, 409)
  create(@CurrentUser() caller: AuthUser, @Body() dto: CreateLeaveRequestDto): Promise<LeaveRequestDto> {
    return this.leaves.create(caller, dto);
  }

  @Get(':id')
  @Authenticated()
  @ApiOperation({ summary: 'One leave request (the employee, its approvers, and who can see the employee)' })
  @ApiOkEnvelope(LeaveRequestDto)
  @ApiErrors(400, 401, 404)
  get(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<LeaveRequestDto> {
    return this.leaves.get(caller, id);
  }

  @Post(':id/approve')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Approve the open step of a pending request (its approvers, or an Admin; never the requester)',
    description: APPROVAL_DECISION_NOTE,
  })
  @ApiExtension(OPTIONAL_BODY, true)
  @ApiOkEnvelope(LeaveRequestDto)
  @ApiErrors(400, 401, 403, 404, 409)
  approve(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() body: DecisionBodyDto,
  ): Promise<LeaveRequestDto> {
    return this.leaves.decide(caller, id, 'Approved', body?.comment);
  }

  @Post(':id/reject')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Reject the open step of a pending request (its approvers, or an Admin; never the requester)',
    description: APPROVAL_DECISION_NOTE,
  })
  @ApiExtension(OPTIONAL_BODY, true)
  @ApiOkEnvelope(LeaveRequestDto)
  @ApiErrors(400, 401, 403, 404, 409)
  reject(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() body: DecisionBodyDto,
  ): Promise<LeaveRequestDto> {
    return this.leaves.decide(caller, id, 'Rejected', body?.comment);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({ summary: 'Cancel a pending or approved request (the requester or an Admin)' })
  @ApiOkEnvelope(LeaveRequestDto)
  @ApiErrors(400, 401, 403, 404, 409)
  cancel(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<LeaveRequestDto> {
    return this.leaves.cancel(caller, id);
  }
}

@ApiTags('Leave')
@ApiBearerAuth()
@Controller('employees/:id/leaves')
export class EmployeeLeavesController {
  constructor(private readonly leaves: LeaveRequestsService) {}

  @Get()
  @Authenticated()
  @ApiOperation({ summary: "The employee's leave requests, newest first" })
  @ApiListEnvelope(LeaveRequestDto)
  @Exportable('leaves', LeaveRequestRowDto)
  @ApiListQuery(LEAVE_LIST_SPEC)
  @ApiErrors(400, 401, 404)
  list(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: LeaveListQueryDto,
  ): Promise<Page<LeaveRequestDto>> {
    return this.leaves.list(caller, query, id);
  }

  @Get('summary')
  @Authenticated()
  @ApiOperation({
    summary: 'Balance per leave type for the current leave period (entitled, taken, pending, available) and requests by status',
  })
  @ApiOkEnvelope(LeaveSummaryDto)
  @ApiErrors(400, 401, 404)
  summary(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<LeaveSummaryDto> {
    return this.leaves.summary(caller, id);
  }
}

import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Levels } from '../../common/auth/access.decorators';
import { AuthUser } from '../../common/auth/auth-user';
import { crudController } from '../../common/crud/crud.controller';
import { ApiArrayEnvelope, ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../../common/envelope/api-envelope.decorators';
import { Exportable } from '../../common/export/exportable';
import { ApiListQuery } from '../../common/paging/api-list-query.decorator';
import { Page } from '../../common/paging/page';
import { IdParamPipe } from '../../common/validation/id-param.pipe';
import {
  CreateLeaveAdjustmentDto,
  CreateLeaveEncashmentDto,
  CreateLeavePolicyAssignmentDto,
  CreateLeavePolicyDto,
  LeaveBalanceDto,
  LeaveBalanceQueryDto,
  LeaveLedgerEntryDto,
  LeaveLedgerQueryDto,
  LeavePolicyAssignmentDto,
  LeavePolicyDto,
  UpdateLeavePolicyAssignmentDto,
  UpdateLeavePolicyDto,
} from '../dto/leave-ledger.dto';
import { LEDGER_LIST_SPEC } from './leave-balances';
import { LeaveBalancesService } from './leave-balances.service';
import { LeaveLedgerService } from './leave-ledger.service';
import { ASSIGNMENT_LIST, LeavePoliciesService, POLICY_LIST } from './leave-policies.service';

export const LEAVE_POLICY_CONTROLLERS = [
  crudController<LeavePoliciesService>({
    path: 'leave-policies',
    label: 'Leave policy',
    tag: 'Leave',
    dto: LeavePolicyDto,
    createDto: CreateLeavePolicyDto,
    updateDto: UpdateLeavePolicyDto,
    service: LeavePoliciesService,
    crud: (s) => s.policies,
    listSpec: POLICY_LIST,
    note: "How a leave type accrues, carries over and expires. A leave type's default_days apply as a fixed_per_period policy where no assignment does.",
  }),
  crudController<LeavePoliciesService>({
    path: 'leave-policy-assignments',
    label: 'Leave policy assignment',
    tag: 'Leave',
    dto: LeavePolicyAssignmentDto,
    createDto: CreateLeavePolicyAssignmentDto,
    updateDto: UpdateLeavePolicyAssignmentDto,
    service: LeavePoliciesService,
    crud: (s) => s.assignments,
    listSpec: ASSIGNMENT_LIST,
    readers: ['Admin', 'Restricted Admin'],
    note:
      'One target at most: an employee, a department (with its children), a pay grade, an employment status, or none (everyone). ' +
      'Per leave type and day the most specific in force wins: employee, department (nearest), pay grade, employment status, everyone; then the latest valid_from.',
  }),
];

@ApiTags('Leave')
@ApiBearerAuth()
@Controller('employees/:id')
export class EmployeeLeaveLedgerController {
  constructor(private readonly ledger: LeaveBalancesService) {}

  @Get('leaves/balance')
  @Authenticated()
  @ApiOperation({
    summary: 'Balance per leave type as of a day (default today), from the leave ledger',
    description:
      'Counts the entries of the leave period containing as_of up to that day; a future day adds the accruals, carry-over and expiry the policies will have written by then.',
  })
  @ApiArrayEnvelope(LeaveBalanceDto)
  @ApiErrors(400, 401, 404)
  balance(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: LeaveBalanceQueryDto,
  ): Promise<LeaveBalanceDto[]> {
    return this.ledger.balance(caller, id, query);
  }

  @Get('leave-ledger')
  @Authenticated()
  @ApiOperation({ summary: "The employee's leave ledger, newest first", description: 'filters: leave_type, kind; from/to.' })
  @ApiListEnvelope(LeaveLedgerEntryDto)
  @Exportable('leave-ledger', LeaveLedgerEntryDto)
  @ApiListQuery(LEDGER_LIST_SPEC)
  @ApiErrors(400, 401, 404)
  list(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: LeaveLedgerQueryDto,
  ): Promise<Page<LeaveLedgerEntryDto>> {
    return this.ledger.list(caller, id, query);
  }
}

@ApiTags('Leave')
@ApiBearerAuth()
@Controller()
export class LeaveLedgerWritesController {
  constructor(private readonly ledger: LeaveLedgerService) {}

  @Post('leave-adjustments')
  @HttpCode(200)
  @Levels('Admin', 'Restricted Admin')
  @ApiOperation({ summary: 'Adjust a balance by signed days with the reason (Admin; Restricted Admin in scope); audited' })
  @ApiOkEnvelope(LeaveLedgerEntryDto)
  @ApiErrors(400, 401, 403, 404)
  adjust(@CurrentUser() caller: AuthUser, @Body() dto: CreateLeaveAdjustmentDto): Promise<LeaveLedgerEntryDto> {
    return this.ledger.adjust(caller, dto);
  }

  @Post('leave-encashments')
  @HttpCode(200)
  @Levels('Admin')
  @ApiOperation({
    summary: 'Pay out days of a balance (Admin); audited',
    description:
      '409 NOT_ENCASHABLE unless the policy in force allows it; 400 past its encashment_max per leave period or the available balance.',
  })
  @ApiOkEnvelope(LeaveLedgerEntryDto)
  @ApiErrors(400, 401, 403, 404, 409)
  encash(@CurrentUser() caller: AuthUser, @Body() dto: CreateLeaveEncashmentDto): Promise<LeaveLedgerEntryDto> {
    return this.ledger.encash(caller, dto);
  }
}

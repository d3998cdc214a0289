import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Levels } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { DeletedDto } from '../common/crud/crud.controller';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { ApiListQuery } from '../common/paging/api-list-query.decorator';
import { DateRangeListQueryDto, ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { ApprovalInboxService } from './approval-inbox.service';
import { DELEGATION_LIST_SPEC, PENDING_LIST_SPEC } from './approval-views';
import { ApprovalPoliciesService, POLICY_LIST_SPEC } from './approval-policies.service';
import {
  ApprovalDelegationDto,
  ApprovalPolicyDto,
  CreateApprovalDelegationDto,
  CreateApprovalPolicyDto,
  PendingApprovalDto,
  UpdateApprovalDelegationDto,
  UpdateApprovalPolicyDto,
} from './dto/approvals.dto';

const POLICY_NOTE =
  'The most specific policy whose conditions all hold applies to a new leave request or submitted time entry (most conditions ' +
  'set, then the lowest id); none: one step, any of the supervisor and approver1..3. A request keeps the chain it was made ' +
  'under: changing or deleting a policy moves no request under decision.';

/** /approval-policies (issue 45, docs/api/decisions.md §21): the Admin's. */
@ApiTags('Approvals')
@ApiBearerAuth()
@Controller('approval-policies')
export class ApprovalPoliciesController {
  constructor(private readonly policies: ApprovalPoliciesService) {}

  @Get()
  @Levels('Admin')
  @ApiOperation({ summary: 'Approval policies', description: POLICY_NOTE })
  @ApiListQuery(POLICY_LIST_SPEC)
  @ApiListEnvelope(ApprovalPolicyDto)
  @ApiErrors(400, 401, 403)
  list(@Query() query: ListQueryDto): Promise<Page<ApprovalPolicyDto>> {
    return this.policies.listPolicies(query);
  }

  @Get(':id')
  @Levels('Admin')
  @ApiOperation({ summary: 'An approval policy' })
  @ApiOkEnvelope(ApprovalPolicyDto)
  @ApiErrors(400, 401, 403, 404)
  get(@Param('id', new IdParamPipe()) id: number): Promise<ApprovalPolicyDto> {
    return this.policies.getPolicy(id);
  }

  @Post()
  @HttpCode(200)
  @Levels('Admin')
  @ApiOperation({ summary: 'Create an approval policy', description: POLICY_NOTE })
  @ApiOkEnvelope(ApprovalPolicyDto)
  @ApiErrors(400, 401, 403)
  create(@Body() dto: CreateApprovalPolicyDto): Promise<ApprovalPolicyDto> {
    return this.policies.createPolicy(dto);
  }

  @Put(':id')
  @Levels('Admin')
  @ApiOperation({ summary: 'Change an approval policy (what the body names; steps: the whole list)' })
  @ApiOkEnvelope(ApprovalPolicyDto)
  @ApiErrors(400, 401, 403, 404)
  update(@Param('id', new IdParamPipe()) id: number, @Body() dto: UpdateApprovalPolicyDto): Promise<ApprovalPolicyDto> {
    return this.policies.updatePolicy(id, dto);
  }

  @Delete(':id')
  @Levels('Admin')
  @ApiOperation({ summary: 'Delete an approval policy (requests under decision keep their chain)' })
  @ApiOkEnvelope(DeletedDto)
  @ApiErrors(400, 401, 403, 404)
  remove(@Param('id', new IdParamPipe()) id: number): Promise<DeletedDto> {
    return this.policies.removePolicy(id);
  }
}

const DELEGATION_NOTE =
  "While a delegation is active, a step that opens gives the delegator's place to the delegate. An approver manages its own " +
  "delegations (and reads those made to it), the Admin anyone's. Not to oneself; not overlapping another of the same delegator.";

/** /approval-delegations (issue 45). */
@ApiTags('Approvals')
@ApiBearerAuth()
@Controller('approval-delegations')
export class ApprovalDelegationsController {
  constructor(private readonly policies: ApprovalPoliciesService) {}

  @Get()
  @Authenticated()
  @ApiOperation({ summary: 'Delegations: the Admin all, anyone else those it made or received', description: DELEGATION_NOTE })
  @ApiListQuery(DELEGATION_LIST_SPEC)
  @ApiListEnvelope(ApprovalDelegationDto)
  @ApiErrors(400, 401)
  list(@CurrentUser() caller: AuthUser, @Query() query: DateRangeListQueryDto): Promise<Page<ApprovalDelegationDto>> {
    return this.policies.listDelegations(caller, query);
  }

  @Get(':id')
  @Authenticated()
  @ApiOperation({ summary: 'A delegation (the Admin, its delegator or its delegate)' })
  @ApiOkEnvelope(ApprovalDelegationDto)
  @ApiErrors(400, 401, 404)
  get(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<ApprovalDelegationDto> {
    return this.policies.getDelegation(caller, id);
  }

  @Post()
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({ summary: 'Delegate approvals for a period', description: DELEGATION_NOTE })
  @ApiOkEnvelope(ApprovalDelegationDto)
  @ApiErrors(400, 401, 403)
  create(@CurrentUser() caller: AuthUser, @Body() dto: CreateApprovalDelegationDto): Promise<ApprovalDelegationDto> {
    return this.policies.createDelegation(caller, dto);
  }

  @Put(':id')
  @Authenticated()
  @ApiOperation({ summary: 'Change a delegation (the Admin or its delegator)', description: DELEGATION_NOTE })
  @ApiOkEnvelope(ApprovalDelegationDto)
  @ApiErrors(400, 401, 403, 404)
  update(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() dto: UpdateApprovalDelegationDto,
  ): Promise<ApprovalDelegationDto> {
    return this.policies.updateDelegation(caller, id, dto);
  }

  @Delete(':id')
  @Authenticated()
  @ApiOperation({ summary: 'End a delegation (the Admin or its delegator)' })
  @ApiOkEnvelope(DeletedDto)
  @ApiErrors(400, 401, 403, 404)
  remove(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<DeletedDto> {
    return this.policies.removeDelegation(caller, id);
  }
}

/** GET /approvals/pending: one inbox across leave and time entries (issue 45). */
@ApiTags('Approvals')
@ApiBearerAuth()
@Controller('approvals')
export class ApprovalsController {
  constructor(private readonly inbox: ApprovalInboxService) {}

  @Get('pending')
  @Authenticated()
  @ApiOperation({
    summary: "The caller's open approval steps, oldest request first",
    description:
      'Leave requests and time entries whose open step the caller decides (an Admin also those that went to the Admins), ' +
      'never its own; filters kind and employee.',
  })
  @ApiListQuery(PENDING_LIST_SPEC)
  @ApiListEnvelope(PendingApprovalDto)
  @ApiErrors(400, 401)
  pending(@CurrentUser() caller: AuthUser, @Query() query: ListQueryDto): Promise<Page<PendingApprovalDto>> {
    return this.inbox.pending(caller, query);
  }
}

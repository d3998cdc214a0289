import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Levels } from '../../common/auth/access.decorators';
import { AuthUser } from '../../common/auth/auth-user';
import { ApiArrayEnvelope, ApiErrors, ApiOkEnvelope } from '../../common/envelope/api-envelope.decorators';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import { IdParamPipe } from '../../common/validation/id-param.pipe';
import {
  CorrectChangeDto,
  EmploymentChangeDto,
  HistoryQueryDto,
  RecordChangeDto,
  SegmentDto,
} from './dto/employment-history.dto';
import { EmploymentHistoryService } from './employment-history.service';

/** Who records changes: administrators in scope; a Manager reaches its reports but may change none of these fields (403). */
const RECORDERS = ['Admin', 'Restricted Admin', 'Manager'] as const;

/** Employment history (issue 43, docs/api/decisions.md §19): dated changes and the segments they make. */
@ApiTags('Employment history')
@ApiBearerAuth()
@Controller('employees/:id')
export class EmploymentHistoryController {
  constructor(private readonly history: EmploymentHistoryService) {}

  @Get('changes')
  @Authenticated()
  @ApiOperation({
    summary: "The employee's recorded changes, in order of recording",
    description:
      'Whoever may see the employee; salary is null unless you administer the employee (Admin, Restricted Admin in scope).',
  })
  @ApiArrayEnvelope(EmploymentChangeDto)
  @ApiErrors(400, 401, 404)
  changes(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<EmploymentChangeDto[]> {
    return this.history.changes(caller, id);
  }

  @Post('changes')
  @HttpCode(200)
  @Levels(...RECORDERS)
  @Idempotent()
  @ApiOperation({
    summary: 'Record a dated change',
    description:
      'Dated today or earlier (the company day of the Time Zone setting): Effective at once, the employee row and salary follow ' +
      'when it is in force today. Later: Scheduled, taking effect on its day (event employee.change_effective). Two changes of one ' +
      'day: the later recorded wins. effective_date between joined_date and termination_date, 1900-01-01 to 2200-12-31. ' +
      'salary: the whole salary from that day (Admin, Restricted Admin in scope). A Restricted Admin changes only days the ' +
      'employee was in its departments (from effective_date to today; 403 otherwise). At most 100 Scheduled changes per ' +
      'employee (409 CONFLICT past it). If-Match (optional): the ETag of GET /employees/{id}; another version is current → ' +
      '412 PRECONDITION_FAILED and nothing is recorded.',
  })
  @ApiBody({
    type: RecordChangeDto,
    examples: {
      promotion: {
        summary: 'A promotion with a raise, from the first of next month',
        value: {
          effective_date: '2027-01-01',
          reason: 'Promotion',
          fields: { job_title: 4 },
          salary: [
            { component: 1, amount: '4200.00' },
            { component: 2, amount: '500.00' },
          ],
        },
      },
      transfer: {
        summary: 'A transfer',
        value: { effective_date: '2027-02-01', reason: 'Transfer', fields: { department: 3, supervisor: 5 } },
      },
    },
  })
  @ApiOkEnvelope(EmploymentChangeDto)
  @ApiErrors(400, 401, 403, 404, 409, 412)
  record(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() dto: RecordChangeDto,
    @Headers('if-match') ifMatch?: string,
  ): Promise<EmploymentChangeDto> {
    return this.history.record(caller, id, dto, ifMatch);
  }

  @Delete('changes/:cid')
  @Levels(...RECORDERS)
  @ApiOperation({ summary: 'Cancel a Scheduled change', description: 'Any other state: 409 INVALID_STATE.' })
  @ApiOkEnvelope(EmploymentChangeDto)
  @ApiErrors(400, 401, 403, 404, 409)
  cancel(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('cid', new IdParamPipe()) cid: number,
  ): Promise<EmploymentChangeDto> {
    return this.history.cancel(caller, id, cid);
  }

  @Post('changes/:cid/correct')
  @HttpCode(200)
  @Levels(...RECORDERS)
  @Idempotent()
  @ApiOperation({
    summary: 'Correct a Scheduled or Effective change',
    description:
      'Records a new change with corrects = cid: the fields named replace those of the corrected change, salary and effective_date ' +
      'replace its own when given. The corrected change stays readable (a Scheduled one becomes Cancelled); history with a known_at ' +
      'before the correction shows it as it was. A Cancelled or already corrected change: 409 INVALID_STATE.',
  })
  @ApiOkEnvelope(EmploymentChangeDto)
  @ApiErrors(400, 401, 403, 404, 409)
  correct(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('cid', new IdParamPipe()) cid: number,
    @Body() dto: CorrectChangeDto,
  ): Promise<EmploymentChangeDto> {
    return this.history.correct(caller, id, cid, dto);
  }

  @Get('history')
  @Authenticated()
  @ApiOperation({
    summary: "The employee's segments: each stretch of days with one set of dated values",
    description:
      'known_at: as recorded at that instant (what was believed then), default now. effective_to is the last day, null for the ' +
      'open segment. salary is null unless you administer the employee.',
  })
  @ApiArrayEnvelope(SegmentDto)
  @ApiErrors(400, 401, 404)
  segments(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: HistoryQueryDto,
  ): Promise<SegmentDto[]> {
    return this.history.history(caller, id, query.known_at);
  }
}

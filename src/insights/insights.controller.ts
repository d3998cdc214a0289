import { applyDecorators, Controller, Get, Param, PipeTransform, Type } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '../common/auth/auth-user';
import { Authenticated, CurrentUser } from '../common/auth/access.decorators';
import { ApiArrayEnvelope, ApiErrors, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { DomainException } from '../common/errors/domain.exception';
import {
  AttendanceInsightDto,
  DayOfMonthValueDto,
  HeadcountDto,
  INSIGHT_PERIODS,
  InsightPeriod,
  LeaveDepartmentShareDto,
  LeaveLiabilityDto,
  LeaveStatusSummaryDto,
  LeaveTypeShareDto,
  TimesheetInsightDto,
  TurnoverDto,
  WeekdayValueDto,
} from './insights.dto';
import { InsightsService } from './insights.service';
import { WorkforceInsightsService } from './workforce.service';

/** `{period}`: one of INSIGHT_PERIODS, else 400 INVALID_PERIOD listing them. */
class PeriodPipe implements PipeTransform<string, InsightPeriod> {
  transform(value: string): InsightPeriod {
    if ((INSIGHT_PERIODS as readonly string[]).includes(value)) return value as InsightPeriod;
    throw new DomainException('INVALID_PERIOD', `period must be one of ${INSIGHT_PERIODS.join(', ')}`, [
      { field: 'period', message: `must be one of ${INSIGHT_PERIODS.join(', ')}` },
    ]);
  }
}

/** `{period}` of the leave liability: a leave period's id, or one of INSIGHT_PERIODS (today). */
class LiabilityPeriodPipe implements PipeTransform<string, InsightPeriod | number> {
  transform(value: string): InsightPeriod | number {
    if (/^[1-9][0-9]{0,9}$/.test(value) && Number(value) <= 2_147_483_647) return Number(value);
    if ((INSIGHT_PERIODS as readonly string[]).includes(value)) return value as InsightPeriod;
    const allowed = `a leave period id or one of ${INSIGHT_PERIODS.join(', ')}`;
    throw new DomainException('INVALID_PERIOD', `period must be ${allowed}`, [
      { field: 'period', message: `must be ${allowed}` },
    ]);
  }
}

/** Access, the period parameter and the response shape of one insight. */
function Insight(summary: string, model: Type<unknown>, array: boolean) {
  return applyDecorators(
    Authenticated(),
    ApiOperation({
      summary,
      description:
        'Scope: Admin the company, Restricted Admin its departments, Manager its direct reports, Employee itself. The period ends today.',
    }),
    ApiParam({ name: 'period', enum: INSIGHT_PERIODS }),
    array ? ApiArrayEnvelope(model) : ApiOkEnvelope(model),
    ApiErrors(400, 401),
  );
}

@ApiTags('Insights')
@ApiBearerAuth()
@Controller('insights')
export class InsightsController {
  constructor(
    private readonly insights: InsightsService,
    private readonly workforce: WorkforceInsightsService,
  ) {}

  @Get('headcount/:period')
  @Insight(
    "Headcount at each month's end of the period (today for the current month; the last ten years for all), per department of that day",
    HeadcountDto,
    true,
  )
  headcount(@CurrentUser() caller: AuthUser, @Param('period', PeriodPipe) period: InsightPeriod) {
    return this.workforce.headcount(caller, period);
  }

  @Get('turnover/:period')
  @Insight(
    'Leavers of the period (termination date within it, by their department that day) ÷ the average of the month-end headcounts, per department',
    TurnoverDto,
    true,
  )
  turnover(@CurrentUser() caller: AuthUser, @Param('period', PeriodPipe) period: InsightPeriod) {
    return this.workforce.turnover(caller, period);
  }

  @Get('leave-summary/:period')
  @Insight('Leave requests and their days in the period, by status (all four, zeros included)', LeaveStatusSummaryDto, true)
  leaveSummary(@CurrentUser() caller: AuthUser, @Param('period', PeriodPipe) period: InsightPeriod) {
    return this.insights.get(caller, 'leave-summary', period);
  }

  @Get('leave-monthly-pattern/:period')
  @Insight(
    'Approved leave by day of month: 31 items, value = requests taking that day, days = leave days',
    DayOfMonthValueDto,
    true,
  )
  leaveMonthlyPattern(@CurrentUser() caller: AuthUser, @Param('period', PeriodPipe) period: InsightPeriod) {
    return this.insights.get(caller, 'leave-monthly-pattern', period);
  }

  @Get('leave-weekly-pattern/:period')
  @Insight(
    'Approved leave by weekday: 7 items from Monday, value = requests taking that weekday, days = leave days',
    WeekdayValueDto,
    true,
  )
  leaveWeeklyPattern(@CurrentUser() caller: AuthUser, @Param('period', PeriodPipe) period: InsightPeriod) {
    return this.insights.get(caller, 'leave-weekly-pattern', period);
  }

  @Get('leave-type-distribution/:period')
  @Insight('Approved leave by leave type (every type, zeros included)', LeaveTypeShareDto, true)
  leaveTypeDistribution(@CurrentUser() caller: AuthUser, @Param('period', PeriodPipe) period: InsightPeriod) {
    return this.insights.get(caller, 'leave-type-distribution', period);
  }

  @Get('leave-by-department/:period')
  @Insight("Approved leave by the employees' departments, most days first", LeaveDepartmentShareDto, true)
  leaveByDepartment(@CurrentUser() caller: AuthUser, @Param('period', PeriodPipe) period: InsightPeriod) {
    return this.insights.get(caller, 'leave-by-department', period);
  }

  @Get('leave-liability/:period')
  @Authenticated()
  @ApiOperation({
    summary: 'Leave days owed per leave type and department at the end of a leave period (or today), from the leave ledger',
    description:
      '`period`: a leave period id (its last day; a later day projects the accruals due by then) or one of the insight periods (today). ' +
      'Each row sums the positive available balances of the employees employed that day; negative balances are not netted. ' +
      'Scope: Admin the company, Restricted Admin its departments, Manager its direct reports, Employee itself. Most days first.',
  })
  @ApiParam({
    name: 'period',
    schema: {
      oneOf: [
        { type: 'integer', minimum: 1 },
        { type: 'string', enum: [...INSIGHT_PERIODS] },
      ],
    },
  })
  @ApiArrayEnvelope(LeaveLiabilityDto)
  @ApiErrors(400, 401, 404)
  leaveLiability(@CurrentUser() caller: AuthUser, @Param('period', LiabilityPeriodPipe) period: InsightPeriod | number) {
    return this.insights.leaveLiability(caller, period);
  }

  @Get('attendance-summary/:period')
  @Insight('Attendance records started in the period: counts and hours', AttendanceInsightDto, false)
  attendanceSummary(@CurrentUser() caller: AuthUser, @Param('period', PeriodPipe) period: InsightPeriod) {
    return this.insights.get(caller, 'attendance-summary', period);
  }

  @Get('attendance-monthly-pattern/:period')
  @Insight('Attendance hours by day of month (the day a record starts, UTC): 31 items', DayOfMonthValueDto, true)
  attendanceMonthlyPattern(@CurrentUser() caller: AuthUser, @Param('period', PeriodPipe) period: InsightPeriod) {
    return this.insights.get(caller, 'attendance-monthly-pattern', period);
  }

  @Get('attendance-weekly-pattern/:period')
  @Insight('Attendance hours by weekday (the day a record starts, UTC): 7 items from Monday', WeekdayValueDto, true)
  attendanceWeeklyPattern(@CurrentUser() caller: AuthUser, @Param('period', PeriodPipe) period: InsightPeriod) {
    return this.insights.get(caller, 'attendance-weekly-pattern', period);
  }

  @Get('timesheet-summary/:period')
  @Insight('Time entries of the period (not rejected): counts and hours', TimesheetInsightDto, false)
  timesheetSummary(@CurrentUser() caller: AuthUser, @Param('period', PeriodPipe) period: InsightPeriod) {
    return this.insights.get(caller, 'timesheet-summary', period);
  }

  @Get('timesheet-monthly-pattern/:period')
  @Insight('Time entry hours by day of month: 31 items', DayOfMonthValueDto, true)
  timesheetMonthlyPattern(@CurrentUser() caller: AuthUser, @Param('period', PeriodPipe) period: InsightPeriod) {
    return this.insights.get(caller, 'timesheet-monthly-pattern', period);
  }

  @Get('timesheet-weekly-pattern/:period')
  @Insight('Time entry hours by weekday: 7 items from Monday', WeekdayValueDto, true)
  timesheetWeeklyPattern(@CurrentUser() caller: AuthUser, @Param('period', PeriodPipe) period: InsightPeriod) {
    return this.insights.get(caller, 'timesheet-weekly-pattern', period);
  }
}

import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { ApiErrors, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { EmployeeAccessService } from './core/employee-access.service';
import { CompanyClock } from '../common/time/company-clock';
import { lastOfMonth } from '../common/time/days';
import { WorkingDaysDto, WorkingDaysQueryDto } from '../calendars/dto/calendars.dto';
import { workingTime } from '../calendars/working-days';
import { checkRange, MAX_WORKING_DAYS_SPAN, WorkingDaysService } from '../calendars/working-days.service';

@ApiTags('Calendars')
@ApiBearerAuth()
@Controller('employees/:id/working-days')
export class WorkingDaysController {
  constructor(
    private readonly access: EmployeeAccessService,
    private readonly workingDays: WorkingDaysService,
    private readonly clock: CompanyClock,
  ) {}

  @Get()
  @Authenticated()
  @ApiOperation({
    summary: "An employee's working days",
    description:
      `Each day from \`from\` to \`to\` (at most ${MAX_WORKING_DAYS_SPAN} days) by the calendar the employee had that day: ` +
      'its work week less its holidays (a half-day holiday leaves 0.5). What leave, proration and reminders count by.',
  })
  @ApiOkEnvelope(WorkingDaysDto)
  @ApiErrors(400, 401, 404)
  async get(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: WorkingDaysQueryDto,
  ): Promise<WorkingDaysDto> {
    await this.access.visible(caller, id);
    const from = query.from ?? `${(await this.clock.today()).slice(0, 7)}-01`;
    const to = query.to ?? lastOfMonth(from);
    checkRange(from, to);
    const days = (await this.workingDays.ofEmployees([id], from, to)).get(id)!;
    return { from, to, working_days: workingTime(days, from, to), days: [...days] };
  }
}

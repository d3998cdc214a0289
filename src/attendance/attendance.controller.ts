import { ApiListQuery } from '../common/paging/api-list-query.decorator';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Levels } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { Exportable } from '../common/export/exportable';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { Page } from '../common/paging/page';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { AttendanceService, ATTENDANCE_LIST_SPEC } from './attendance.service';
import {
  AttendanceDeletedDto,
  AttendanceDto,
  AttendanceListQueryDto,
  AttendanceSummaryDto,
  CreateAttendanceDto,
  PunchInDto,
  PunchOutDto,
  UpdateAttendanceDto,
} from './dto/attendance.dto';

const TIMES = 'Times are ISO 8601 with an offset on input and UTC on output; date ranges are UTC days.';

@ApiTags('Attendance')
@ApiBearerAuth()
@Controller('attendance')
export class AttendanceController {
  constructor(private readonly attendance: AttendanceService) {}

  @Post('punch-in')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: "Punch in (the caller's own employee, or `employee` for Admins, Restricted Admins in scope and Managers of it)",
    description: `409 ALREADY_PUNCHED_IN without a punch-out; 409 OVERLAPPING_ATTENDANCE inside or before an existing record. ${TIMES}`,
  })
  @ApiOkEnvelope(AttendanceDto)
  @ApiErrors(400, 401, 404, 409)
  punchIn(@CurrentUser() caller: AuthUser, @Body() dto: PunchInDto): Promise<AttendanceDto> {
    return this.attendance.punchIn(caller, dto);
  }

  @Post('punch-out')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Punch out the open record',
    description: `409 NOT_PUNCHED_IN without an open record; 409 OUT_BEFORE_IN when not after the punch-in. ${TIMES}`,
  })
  @ApiOkEnvelope(AttendanceDto)
  @ApiErrors(400, 401, 404, 409)
  punchOut(@CurrentUser() caller: AuthUser, @Body() dto: PunchOutDto): Promise<AttendanceDto> {
    return this.attendance.punchOut(caller, dto);
  }

  @Get()
  @Authenticated()
  @ApiOperation({
    summary:
      'Attendance records the caller may see, its own included (Admin: all; Restricted Admin: its departments; Manager: itself and its direct reports; Employee: itself)',
    description: `Newest first by default. sortField: id, in_time; filters: employee, work_from_home; from/to: UTC days. ${TIMES}`,
  })
  @ApiListEnvelope(AttendanceDto)
  @Exportable('attendance', AttendanceDto)
  @ApiListQuery(ATTENDANCE_LIST_SPEC)
  @ApiErrors(400, 401, 403)
  list(@CurrentUser() caller: AuthUser, @Query() query: AttendanceListQueryDto): Promise<Page<AttendanceDto>> {
    return this.attendance.list(caller, query);
  }

  @Get(':id')
  @Levels('Admin', 'Restricted Admin')
  @ApiOperation({ summary: 'One attendance record' })
  @ApiOkEnvelope(AttendanceDto)
  @ApiErrors(400, 401, 403, 404)
  get(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<AttendanceDto> {
    return this.attendance.get(caller, id);
  }

  @Post()
  @HttpCode(200)
  @Levels('Admin', 'Restricted Admin')
  @ApiOperation({
    summary: 'Record attendance for an employee',
    description: `out_time after in_time; no overlap (409). ${TIMES}`,
  })
  @ApiOkEnvelope(AttendanceDto)
  @ApiErrors(400, 401, 403, 404, 409)
  create(@CurrentUser() caller: AuthUser, @Body() dto: CreateAttendanceDto): Promise<AttendanceDto> {
    return this.attendance.create(caller, dto);
  }

  @Put(':id')
  @Levels('Admin', 'Restricted Admin')
  @ApiOperation({ summary: 'Correct an attendance record' })
  @ApiOkEnvelope(AttendanceDto)
  @ApiErrors(400, 401, 403, 404, 409)
  update(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() dto: UpdateAttendanceDto,
  ): Promise<AttendanceDto> {
    return this.attendance.update(caller, id, dto);
  }

  @Delete(':id')
  @Levels('Admin', 'Restricted Admin')
  @ApiOperation({ summary: 'Delete an attendance record' })
  @ApiOkEnvelope(AttendanceDeletedDto)
  @ApiErrors(400, 401, 403, 404)
  remove(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<AttendanceDeletedDto> {
    return this.attendance.remove(caller, id);
  }
}

@ApiTags('Attendance')
@ApiBearerAuth()
@Controller('employees/:id/attendance')
export class EmployeeAttendanceController {
  constructor(private readonly attendance: AttendanceService) {}

  @Get()
  @Authenticated()
  @ApiOperation({ summary: "The employee's attendance records, newest first, with work_from_home", description: TIMES })
  @ApiListEnvelope(AttendanceDto)
  @Exportable('attendance', AttendanceDto)
  @ApiListQuery(ATTENDANCE_LIST_SPEC)
  @ApiErrors(400, 401, 404)
  list(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: AttendanceListQueryDto,
  ): Promise<Page<AttendanceDto>> {
    return this.attendance.list(caller, query, id);
  }

  @Get('summary')
  @Authenticated()
  @ApiOperation({
    summary: 'Attendance summary: total_records, total_hours, this_month_records, average_hours, work_from_home_records',
  })
  @ApiOkEnvelope(AttendanceSummaryDto)
  @ApiErrors(400, 401, 404)
  summary(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<AttendanceSummaryDto> {
    return this.attendance.summary(caller, id);
  }
}

import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, Levels } from '../common/auth/access.decorators';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { ApiListQuery } from '../common/paging/api-list-query.decorator';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { crudController } from '../common/crud/crud.controller';
import { CALENDAR_LIST, CalendarsService } from './calendars.service';
import {
  CalendarDeletedDto,
  CalendarDto,
  CreateCalendarDto,
  CreateHolidayDto,
  HolidayDto,
  HolidayImportDto,
  HolidayImportQueryDto,
  UpdateCalendarDto,
  UpdateHolidayDto,
} from './dto/calendars.dto';
import { HOLIDAY_LIST, HolidaysService } from './holidays.service';

@ApiTags('Calendars')
@ApiBearerAuth()
@Controller('calendars')
export class CalendarsController {
  constructor(
    private readonly calendars: CalendarsService,
    private readonly holidays: HolidaysService,
  ) {}

  @Get()
  @Authenticated()
  @ApiOperation({ summary: 'Work calendars' })
  @ApiListEnvelope(CalendarDto)
  @ApiListQuery(CALENDAR_LIST)
  @ApiErrors(400, 401)
  list(@Query() query: ListQueryDto): Promise<Page<CalendarDto>> {
    return this.calendars.list(query);
  }

  @Get(':id')
  @Authenticated()
  @ApiOperation({ summary: 'A work calendar' })
  @ApiOkEnvelope(CalendarDto)
  @ApiErrors(400, 401, 404)
  get(@Param('id', new IdParamPipe()) id: number): Promise<CalendarDto> {
    return this.calendars.get(id);
  }

  @Post()
  @HttpCode(200)
  @Levels('Admin')
  @ApiOperation({ summary: 'Create a work calendar (a country, optionally a subdivision, a work week)' })
  @ApiOkEnvelope(CalendarDto)
  @ApiErrors(400, 401, 403, 409)
  create(@Body() dto: CreateCalendarDto): Promise<CalendarDto> {
    return this.calendars.create(dto);
  }

  @Put(':id')
  @Levels('Admin')
  @ApiOperation({ summary: 'Change a work calendar; is_default true makes it the default' })
  @ApiOkEnvelope(CalendarDto)
  @ApiErrors(400, 401, 403, 404, 409)
  update(@Param('id', new IdParamPipe()) id: number, @Body() dto: UpdateCalendarDto): Promise<CalendarDto> {
    return this.calendars.update(id, dto);
  }

  @Delete(':id')
  @Levels('Admin')
  @ApiOperation({ summary: 'Delete a work calendar and its holidays: not the default, nor one employees use (409)' })
  @ApiOkEnvelope(CalendarDeletedDto)
  @ApiErrors(400, 401, 403, 404, 409)
  remove(@Param('id', new IdParamPipe()) id: number): Promise<CalendarDeletedDto> {
    return this.calendars.remove(id);
  }

  @Get(':id/holidays')
  @Authenticated()
  @ApiOperation({ summary: "A calendar's holidays" })
  @ApiListEnvelope(HolidayDto)
  @ApiListQuery(HOLIDAY_LIST)
  @ApiErrors(400, 401, 404)
  holidaysOf(@Param('id', new IdParamPipe()) id: number, @Query() query: ListQueryDto): Promise<Page<HolidayDto>> {
    return this.holidays.list(id, query);
  }

  @Post(':id/holidays')
  @HttpCode(200)
  @Levels('Admin')
  @ApiOperation({ summary: 'Add a holiday to a calendar (one per date: 409)' })
  @ApiOkEnvelope(HolidayDto)
  @ApiErrors(400, 401, 403, 404, 409)
  addHoliday(@Param('id', new IdParamPipe()) id: number, @Body() dto: CreateHolidayDto): Promise<HolidayDto> {
    return this.holidays.create(id, dto);
  }

  @Post(':id/holidays/import')
  @HttpCode(200)
  @Levels('Admin')
  @ApiOperation({
    summary:
      "Add a year's public holidays from the holiday dataset (npm date-holidays) for the calendar's country and subdivision",
    description:
      'Dates the calendar has a holiday on already are reported as existing and left as they are. dry_run=true writes nothing.',
  })
  @ApiOkEnvelope(HolidayImportDto)
  @ApiErrors(400, 401, 403, 404)
  importHolidays(@Param('id', new IdParamPipe()) id: number, @Query() query: HolidayImportQueryDto): Promise<HolidayImportDto> {
    return this.holidays.import(id, query.year, query.dry_run === 'true');
  }

  @Get(':id/holidays/:holiday')
  @Authenticated()
  @ApiOperation({ summary: "One of a calendar's holidays" })
  @ApiOkEnvelope(HolidayDto)
  @ApiErrors(400, 401, 404)
  holiday(@Param('id', new IdParamPipe()) id: number, @Param('holiday', new IdParamPipe()) holiday: number): Promise<HolidayDto> {
    return this.holidays.get(id, holiday);
  }

  @Put(':id/holidays/:holiday')
  @Levels('Admin')
  @ApiOperation({ summary: "Change one of a calendar's holidays" })
  @ApiOkEnvelope(HolidayDto)
  @ApiErrors(400, 401, 403, 404, 409)
  updateHoliday(
    @Param('id', new IdParamPipe()) id: number,
    @Param('holiday', new IdParamPipe()) holiday: number,
    @Body() dto: UpdateHolidayDto,
  ): Promise<HolidayDto> {
    return this.holidays.update(id, holiday, dto);
  }

  @Delete(':id/holidays/:holiday')
  @Levels('Admin')
  @ApiOperation({ summary: "Remove one of a calendar's holidays" })
  @ApiOkEnvelope(CalendarDeletedDto)
  @ApiErrors(400, 401, 403, 404)
  removeHoliday(
    @Param('id', new IdParamPipe()) id: number,
    @Param('holiday', new IdParamPipe()) holiday: number,
  ): Promise<CalendarDeletedDto> {
    return this.holidays.remove(id, holiday);
  }
}

/** The seed-era routes: the default calendar's holidays, through the shared CRUD controller as before (docs/api/calendars.md). */
export const DEFAULT_HOLIDAYS_CONTROLLER = crudController<HolidaysService>({
  path: 'holidays',
  label: 'Holiday',
  tag: 'Leave',
  dto: HolidayDto,
  createDto: CreateHolidayDto,
  updateDto: UpdateHolidayDto,
  service: HolidaysService,
  crud: (s) => s.defaults,
  listSpec: HOLIDAY_LIST,
  note: "The default calendar's (GET /calendars): one holiday per date.",
});

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { declareExtension } from '../common/meta/extensions';
import { declareApiTag } from '../common/openapi/api-tags';
import { SettingsModule } from '../settings/settings.module';
import { CalendarsController, DEFAULT_HOLIDAYS_CONTROLLER } from './calendars.controller';
import { CalendarsRepository } from './calendars.repository';
import { CalendarsService } from './calendars.service';
import { CALENDAR_ENTITIES } from './entities/calendar.entities';
import { HolidaysService } from './holidays.service';
import { WorkingDaysService } from './working-days.service';
import './calendars.settings';

declareApiTag('Calendars', 'Work calendars: country, subdivision, work week and holidays; working days', 125);

declareExtension({
  code: 'calendars',
  label: 'Work calendars',
  features: ['calendars', 'holidays', 'half-days', 'holiday-import'],
});

/** Work calendars (issue 65, docs/api/calendars.md). */
@Module({
  imports: [SettingsModule, TypeOrmModule.forFeature(CALENDAR_ENTITIES)],
  controllers: [CalendarsController, DEFAULT_HOLIDAYS_CONTROLLER],
  providers: [CalendarsService, CalendarsRepository, HolidaysService, WorkingDaysService],
  exports: [CalendarsService, HolidaysService, WorkingDaysService],
})
export class CalendarsModule {}

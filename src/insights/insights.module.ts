import './insights.config';
import { declareMobileModule } from '../settings/settings.registry';
import { Module } from '@nestjs/common';
import { declareApiTag } from '../common/openapi/api-tags';
import { declareExtension } from '../common/meta/extensions';
import { CalendarsModule } from '../calendars/calendars.module';
import { EmployeesModule } from '../employees/employees.module';
import { LeaveModule } from '../leave/leave.module';
import { InsightsController } from './insights.controller';
import { InsightsService } from './insights.service';
import { WorkforceInsightsService } from './workforce.service';
import { InsightsRepository } from './insights.repository';
import { AttendanceExpectations } from './attendance-expectations';

declareApiTag('Insights', 'Leave, attendance, timesheet, headcount and turnover statistics per period', 200);

declareMobileModule({ key: 'insights', label: 'Insights' });

declareExtension({
  code: 'insights',
  label: 'Insights',
  features: ['leave-insights', 'attendance-insights', 'timesheet-insights', 'workforce'],
});

@Module({
  imports: [EmployeesModule, LeaveModule, CalendarsModule],
  controllers: [InsightsController],
  providers: [InsightsService, InsightsRepository, WorkforceInsightsService, AttendanceExpectations],
})
export class InsightsModule {}

import { Module } from '@nestjs/common';
import { EmployeesModule } from '../employees/employees.module';
import { LeaveModule } from '../leave/leave.module';
import { InsightsController } from './insights.controller';
import { InsightsService } from './insights.service';
import { WorkforceInsightsService } from './workforce.service';
import { InsightsRepository } from './insights.repository';

@Module({
  imports: [EmployeesModule, LeaveModule],
  controllers: [InsightsController],
  providers: [InsightsService, InsightsRepository, WorkforceInsightsService],
})
export class InsightsModule {}

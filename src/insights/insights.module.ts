import { Module } from '@nestjs/common';
import { EmployeesModule } from '../employees/employees.module';
import { InsightsController } from './insights.controller';
import { InsightsService } from './insights.service';
import { InsightsRepository } from './insights.repository';

@Module({ imports: [EmployeesModule], controllers: [InsightsController], providers: [InsightsService, InsightsRepository] })
export class InsightsModule {}

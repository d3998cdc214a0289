import { Module } from '@nestjs/common';
import { EmployeesModule } from '../employees/employees.module';
import { InsightsController } from './insights.controller';
import { InsightsService } from './insights.service';

@Module({ imports: [EmployeesModule], controllers: [InsightsController], providers: [InsightsService] })
export class InsightsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EmployeesModule } from '../employees/employees.module';
import { SettingsModule } from '../settings/settings.module';
import { LEAVE_ENTITIES } from './entities/leave.entities';
import { LeaveRequestsService } from './leave-requests.service';
import { LeaveEntitlementsImport } from './leave.import';
import { LeaveSetupService } from './leave-setup.service';
import { LeaveRepository } from './leave.repository';
import {
  EmployeeLeavesController,
  LEAVE_SETUP_CONTROLLERS,
  LeaveEntitlementsController,
  LeavesController,
} from './leave.controllers';

@Module({
  imports: [EmployeesModule, SettingsModule, TypeOrmModule.forFeature(LEAVE_ENTITIES)],
  controllers: [...LEAVE_SETUP_CONTROLLERS, LeaveEntitlementsController, LeavesController, EmployeeLeavesController],
  providers: [LeaveSetupService, LeaveRequestsService, LeaveRepository, LeaveEntitlementsImport],
  exports: [LeaveSetupService, LeaveRequestsService],
})
export class LeaveModule {}

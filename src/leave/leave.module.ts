import { AccrualChangesSubscriber } from './ledger/accrual-changes.subscriber';
import { CalendarChangesSubscriber } from './calendar-changes.subscriber';
import { LeaveRecomputeService } from './leave-recompute.service';
import { declareMobileModule } from '../settings/settings.registry';
import { LeavePayrollInputs } from './leave.payroll-inputs';
import { LeaveReactions } from './leave.reactions';
import { declareApiTag } from '../common/openapi/api-tags';
import { LeaveApprovals } from './leave.approvals';
import { declareExtension } from '../common/meta/extensions';
import { Module } from '@nestjs/common';
import { CalendarsModule } from '../calendars/calendars.module';
import { ApprovalsModule } from '../approvals/approvals.module';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EmployeesModule } from '../employees/employees.module';
import { SettingsModule } from '../settings/settings.module';
import { LEAVE_ENTITIES } from './entities/leave.entities';
import { LEAVE_LEDGER_ENTITIES } from './entities/leave-ledger.entities';
import { LeaveLedgerRepository } from './ledger/leave-ledger.repository';
import { AccrualRunsRepository } from './ledger/accrual-runs.repository';
import { LeaveAccrualsService } from './ledger/leave-accruals.service';
import { LeaveBalancesService } from './ledger/leave-balances.service';
import { LeaveLiabilityService } from './ledger/leave-liability.service';
import { LiabilityRepository } from './ledger/liability.repository';
import { LeaveLedgerService } from './ledger/leave-ledger.service';
import { LeavePoliciesService } from './ledger/leave-policies.service';
import {
  EmployeeLeaveLedgerController,
  LEAVE_POLICY_CONTROLLERS,
  LeaveLedgerWritesController,
} from './ledger/leave-ledger.controllers';
import { LeaveRequestsService } from './leave-requests.service';
import { LeaveCalendarService } from './leave-calendar.service';
import { LeaveBalancesImport, LeaveEntitlementsImport } from './leave.import';
import { LeaveSetupService } from './leave-setup.service';
import { LeaveRepository } from './leave.repository';
import {
  EmployeeLeavesController,
  LEAVE_SETUP_CONTROLLERS,
  LeaveEntitlementsController,
  LeavesController,
} from './leave.controllers';
import { LeavePersonalData } from './leave.personal-data';

declareApiTag('Leave', 'Leave types, periods, holidays, entitlements and leave requests', 120);

declareMobileModule({ key: 'leaves', label: 'Leaves' });

declareExtension({
  code: 'leave',
  label: 'Leave',
  features: ['leave-types', 'leave-periods', 'holidays', 'leave-requests', 'leave-ledger', 'accruals'],
});

@Module({
  imports: [
    CalendarsModule,
    EmployeesModule,
    SettingsModule,
    ApprovalsModule,
    TypeOrmModule.forFeature([...LEAVE_ENTITIES, ...LEAVE_LEDGER_ENTITIES]),
  ],
  controllers: [
    ...LEAVE_SETUP_CONTROLLERS,
    LeaveEntitlementsController,
    LeavesController,
    EmployeeLeavesController,
    ...LEAVE_POLICY_CONTROLLERS,
    EmployeeLeaveLedgerController,
    LeaveLedgerWritesController,
  ],
  providers: [
    LeavePersonalData,
    LeaveReactions,
    LeaveApprovals,
    LeavePayrollInputs,
    LeaveSetupService,
    LeaveRequestsService,
    LeaveCalendarService,
    LeaveRepository,
    LeaveEntitlementsImport,
    LeaveBalancesImport,
    LeaveLedgerRepository,
    AccrualRunsRepository,
    AccrualChangesSubscriber,
    LeaveRecomputeService,
    CalendarChangesSubscriber,
    LiabilityRepository,
    LeaveLiabilityService,
    LeaveLedgerService,
    LeaveBalancesService,
    LeaveAccrualsService,
    LeavePoliciesService,
  ],
  exports: [
    LeaveSetupService,
    LeaveRequestsService,
    LeaveCalendarService,
    LeaveLedgerService,
    LeaveBalancesService,
    LeaveLiabilityService,
    LeaveAccrualsService,
  ],
})
export class LeaveModule {}

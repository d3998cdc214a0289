import { Module } from '@nestjs/common';
import { declareApiTag } from '../common/openapi/api-tags';
import { declareExtension } from '../common/meta/extensions';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EmployeesModule } from '../employees/employees.module';
import { SettingsModule } from '../settings/settings.module';
import { ApprovalLeavers } from './approval-leavers';
import { ApprovalInboxService } from './approval-inbox.service';
import { ApprovalPoliciesService } from './approval-policies.service';
import { ApprovalDelegationsController, ApprovalPoliciesController, ApprovalsController } from './approvals.controller';
import { ApprovalReactions } from './approvals.reactions';
import { ApprovalsService } from './approvals.service';
import { ApprovalAbsences } from './kinds/approval-kinds';
import { ApprovalsRepository } from './approvals.repository';
import { APPROVAL_ENTITIES } from './entities/approval.entities';
import { CalendarsModule } from '../calendars/calendars.module';

declareApiTag('Approvals', "Approval chains of leave and time entries: policies, delegations, the approver's inbox", 140);

declareExtension({ code: 'approvals', label: 'Approvals', features: ['approval-chains', 'approval-inbox', 'escalation'] });

/** Approval chains (issue 45): policies, delegations, each request's chain, the inbox and escalation. */
@Module({
  imports: [EmployeesModule, SettingsModule, CalendarsModule, TypeOrmModule.forFeature(APPROVAL_ENTITIES)],
  controllers: [ApprovalPoliciesController, ApprovalDelegationsController, ApprovalsController],
  providers: [
    ApprovalsService,
    ApprovalPoliciesService,
    ApprovalInboxService,
    ApprovalReactions,
    ApprovalLeavers,
    ApprovalAbsences,
    ApprovalsRepository,
  ],
  exports: [ApprovalsService, ApprovalAbsences],
})
export class ApprovalsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { declareExtension } from '../common/meta/extensions';
import { declareApiTag } from '../common/openapi/api-tags';
import { EmployeesModule } from '../employees/employees.module';
import { ReferenceModule } from '../reference/reference.module';
import { TasksModule } from '../tasks/tasks.module';
import { UsersModule } from '../users/users.module';
import { ChecklistStarter } from './checklist-starter';
import { ChecklistTemplatesService } from './checklist-templates.service';
import { ChecklistsController, ChecklistTemplatesController } from './checklists.controller';
import { ChecklistsJobs } from './checklists.jobs';
import { ChecklistsReactions } from './checklists.reactions';
import { ChecklistsRepository } from './checklists.repository';
import { ChecklistsService } from './checklists.service';
import { ChecklistsSubscriber } from './checklists.subscriber';
import { CHECKLIST_ENTITIES } from './entities/checklist.entities';
import { ChecklistsPersonalData } from './checklists.personal-data';

declareApiTag('Checklists', 'Lifecycle checklists: what a hire, a termination, a transfer or a dated change starts', 126);

declareExtension({
  code: 'checklists',
  label: 'Lifecycle checklists',
  features: ['onboarding', 'offboarding', 'transfers', 'document-completion', 'overdue-reminders'],
});

/** Lifecycle checklists (issue 67, docs/api/checklists.md): joins from its own folder. */
@Module({
  imports: [EmployeesModule, ReferenceModule, TasksModule, UsersModule, TypeOrmModule.forFeature(CHECKLIST_ENTITIES)],
  controllers: [ChecklistTemplatesController, ChecklistsController],
  providers: [
    ChecklistsPersonalData,
    ChecklistsRepository,
    ChecklistTemplatesService,
    ChecklistsService,
    ChecklistStarter,
    ChecklistsSubscriber,
    ChecklistsReactions,
    ChecklistsJobs,
  ],
})
export class ChecklistsModule {}

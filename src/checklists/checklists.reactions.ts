import { Injectable, OnModuleInit } from '@nestjs/common';
import { declareNotificationKinds } from '../common/outbox/notification-kinds';
import { Reactions } from '../common/outbox/reactions';
import { declareTaskSources } from '../common/outbox/task-sources';
import { EmployeeFactsService } from '../employees/employee-facts.service';
import { ITEM_TASKS } from './checklist-starter';
import './checklists.events';

declareTaskSources(ITEM_TASKS);
declareNotificationKinds({
  'checklist.started': { description: 'a checklist started for an employee you look after', email: false, inApp: true },
  'checklist.item_overdue': { description: 'a checklist item of yours is past its due day', email: true, inApp: true },
  'checklist.completed': { description: 'a checklist of an employee you look after is complete', email: false, inApp: true },
});

const WHAT = { hire: 'onboarding', termination: 'offboarding', transfer: 'transfer', change: 'change' } as const;

/**
 * What the checklists' events tell people (issue 67): the employee's HR hears that a checklist
 * started and that it is complete; an overdue item's assignees hear of it once a day. The items'
 * tasks are written with the checklist itself (ChecklistStarter).
 */
@Injectable()
export class ChecklistsReactions implements OnModuleInit {
  constructor(
    private readonly reactions: Reactions,
    private readonly employees: EmployeeFactsService,
  ) {}

  onModuleInit(): void {
    this.reactions.on('checklist.started', {
      notify: async (p) => ({
        to: [{ hrOf: p.employee }],
        title: `The ${WHAT[p.trigger]} checklist of ${await this.employees.nameOf(p.employee)} started`,
        body: `Checklist ${p.id} started for the ${WHAT[p.trigger]} effective ${p.effective_date}.`,
        link: `/checklists/${p.id}`,
      }),
    });
    this.reactions.on('checklist.item_overdue', {
      notify: async (p) => ({
        to: [{ users: p.assignees }],
        title: `Overdue: ${p.title}`,
        body: `"${p.title}" for ${await this.employees.nameOf(p.employee)} was due on ${p.due_date}.`,
        link: `/checklists/${p.id}`,
      }),
    });
    this.reactions.on('checklist.completed', {
      notify: async (p) => ({
        to: [{ hrOf: p.employee }],
        title: `The ${WHAT[p.trigger]} checklist of ${await this.employees.nameOf(p.employee)} is complete`,
        body: `Every required item of checklist ${p.id} is done.`,
        link: `/checklists/${p.id}`,
      }),
    });
  }
}

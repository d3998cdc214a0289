import { Injectable, OnModuleInit } from '@nestjs/common';
import { declareTaskSources } from '../common/outbox/task-sources';
import { declareNotificationKinds } from '../common/outbox/notification-kinds';
import { Reactions, RecipientRule } from '../common/outbox/reactions';
import { EmployeeFactsService } from '../employees/employee-facts.service';
import { DocumentTypesService } from './document-types.service';
import { DocumentExpiryPayload } from './documents.events';

declareTaskSources('document-expiry');

declareNotificationKinds({
  'document.expiring': { description: 'a document is about to expire', email: true, inApp: true },
  'document.expired': { description: 'a document has expired', email: true, inApp: true },
});

/**
 * What the documents' events do (issue 42): the employee's HR, and the employee where the type is
 * visible to it, hear of an expiring or expired document and get a task per reminder, done when the
 * document is renewed or deleted.
 */
@Injectable()
export class DocumentsReactions implements OnModuleInit {
  constructor(
    private readonly reactions: Reactions,
    private readonly employees: EmployeeFactsService,
    private readonly types: DocumentTypesService,
  ) {}

  /** The employee's HR, and the employee's own users where the type is visible to it. */
  private async recipientsOf(employeeId: number, typeId: number): Promise<RecipientRule[]> {
    const type = await this.types.byId(typeId);
    return type?.visibleToEmployee ? [{ hrOf: employeeId }, { usersOf: employeeId }] : [{ hrOf: employeeId }];
  }

  onModuleInit(): void {
    const expiry = async (p: DocumentExpiryPayload) => {
      const name = await this.employees.nameOf(p.employee);
      const when =
        p.days_left < 0
          ? `expired on ${p.valid_until}`
          : p.days_left === 0
            ? 'expires today'
            : `expires in ${p.days_left} days (${p.valid_until})`;
      return {
        to: await this.recipientsOf(p.employee, p.document_type),
        title: `${p.name} of ${name} ${p.days_left < 0 ? 'expired' : 'expires soon'}`,
        body: `${p.name} of ${name} ${when}. Upload the renewed document as a new version.`,
        link: `/employees/${p.employee}/documents/${p.id}`,
      };
    };
    this.reactions.on('document.expiring', { notify: expiry });
    this.reactions.on('document.expired', { notify: expiry });
    this.reactions.on('document.reminder', {
      tasks: async (p) => {
        const name = await this.employees.nameOf(p.employee);
        const when =
          p.days_left === null
            ? `expired (valid until ${p.valid_until})`
            : p.days_left === 0
              ? `expires today (${p.valid_until})`
              : `expires in ${p.days_left} day${p.days_left === 1 ? '' : 's'} (${p.valid_until})`;
        return {
          open: [
            {
              source: 'document-expiry',
              sourceId: p.reminder,
              to: await this.recipientsOf(p.employee, p.document_type),
              title: `${p.name} of ${name} ${when}`,
              description: `Upload the renewed document as a new version (POST /employees/${p.employee}/documents/${p.document}/versions).`,
              priority: p.days_left === null || p.days_left <= 7 ? 'High' : 'Normal',
              dueDate: p.valid_until,
              link: `/employees/${p.employee}/documents/${p.document}`,
            },
          ],
        };
      },
    });
    this.reactions.on('document.settled', {
      tasks: async (p) => ({ complete: [{ source: 'document-expiry', sourceIds: p.reminders }] }),
    });
  }
}

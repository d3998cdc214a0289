import { Injectable, OnModuleInit } from '@nestjs/common';
import { FeedItem, FeedReadRules } from '../common/outbox/feed-read-rules';
import { AuthUser } from '../common/auth/auth-user';
import { DomainException, NotFoundException } from '../common/errors/domain.exception';
import { EmployeeAccessService } from '../employees/core/employee-access.service';
import { DocumentTypesService } from './document-types.service';
import { DocumentsRepository } from './documents.repository';
import { DocumentRecord } from './entities/document.entities';

/** What a caller may do with an employee's documents. */
export interface DocumentAccess {
  /** Admin, or Restricted Admin of the employee's department: every type, every write. */
  admin: boolean;
  /** The caller is the employee (it uploads where the type allows). */
  self: boolean;
  /** The types it reads (null: all). */
  types: number[] | null;
}

/**
 * Who may do what with an employee's documents (docs/api/decisions.md §14): Admins and Restricted Admins in scope
 * read and write all; a Manager reads its direct reports' documents of types visible to managers;
 * an Employee reads its own of types visible to it and uploads where the type allows. Out of
 * scope: 404.
 */
@Injectable()
export class DocumentAccessService implements OnModuleInit {
  constructor(
    private readonly repository: DocumentsRepository,
    private readonly types: DocumentTypesService,
    private readonly access: EmployeeAccessService,
    private readonly feedRules: FeedReadRules,
  ) {}

  /** The change feed shows a document event to whoever reads that document through the REST API. */
  onModuleInit(): void {
    this.feedRules.register('document.', (caller, items) => this.readableEvents(caller, items));
  }

  private async readableEvents(caller: AuthUser, items: FeedItem[]): Promise<boolean[]> {
    const byEmployee = new Map<number, Promise<DocumentAccess | null>>();
    return Promise.all(
      items.map(async ({ data }) => {
        const employee = Number(data.employee);
        if (!byEmployee.has(employee))
          byEmployee.set(
            employee,
            this.accessTo(caller, employee).catch(() => null),
          );
        const access = await byEmployee.get(employee)!;
        return access !== null && (access.types === null || access.types.includes(Number(data.document_type)));
      }),
    );
  }

  async accessTo(caller: AuthUser, employeeId: number): Promise<DocumentAccess> {
    if (await this.access.administersId(caller, employeeId))
      return { admin: true, self: caller.employeeId === employeeId, types: null };
    if (caller.employeeId === employeeId) {
      return { admin: false, self: true, types: (await this.types.all()).filter((t) => t.visibleToEmployee).map((t) => t.id) };
    }
    if (caller.level === 'Manager' && caller.employeeId !== null) {
      const employee = await this.access.employee(employeeId);
      if (employee && employee.supervisorId === caller.employeeId) {
        return { admin: false, self: false, types: (await this.types.all()).filter((t) => t.visibleToManager).map((t) => t.id) };
      }
    }
    throw new NotFoundException('Employee');
  }

  async readable(caller: AuthUser, employeeId: number, id: number): Promise<{ doc: DocumentRecord; access: DocumentAccess }> {
    const access = await this.accessTo(caller, employeeId);
    const doc = await this.repository.one(employeeId, id);
    if (!doc || (access.types && !access.types.includes(doc.documentTypeId))) throw new NotFoundException('Document');
    return { doc, access };
  }

  /** An administrator's write: others who see the document get 403, others 404. */
  async writable(caller: AuthUser, employeeId: number, id: number): Promise<DocumentRecord> {
    const { doc, access } = await this.readable(caller, employeeId, id);
    if (!access.admin) throw new DomainException('FORBIDDEN', "Only HR changes or deletes an employee's documents");
    return doc;
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { ReferenceCrud } from '../common/crud/crud';
import { DomainException } from '../common/errors/domain.exception';
import { DocumentTypeDto } from './dto/document-type.dto';
import { DocumentType } from './entities/document-type.entity';

/** Defaults of a new document type (docs/api/decisions.md §14): reminders 30, 7 and 1 days before expiry. */
const DEFAULTS: Omit<DocumentType, 'id' | 'name' | 'code'> = {
  expires: false,
  notifyDaysBefore: [30, 7, 1],
  visibleToEmployee: true,
  visibleToManager: false,
  employeeMayUpload: false,
};

/** The code of the type payslip PDFs are kept as (seeded by a migration). */
export const PAYSLIP_DOCUMENT_TYPE = 'payslip';

/** The list's filters beyond id and name (its controller documents the same). */
export const DOCUMENT_TYPE_LIST = { filterFields: { expires: { column: 'r.expires', type: 'boolean' as const } } };

/** Document types (`/document-types`): Admins write, every authenticated user reads. */
@Injectable()
export class DocumentTypesService {
  readonly types: ReferenceCrud<DocumentType, DocumentTypeDto>;
  private readonly repo: Repository<DocumentType>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.repo = dataSource.getRepository(DocumentType);
    this.types = new ReferenceCrud<DocumentType, DocumentTypeDto>({
      label: 'Document type',
      resource: 'document-types',
      repo: dataSource.getRepository(DocumentType),
      fields: {
        name: 'name',
        expires: 'expires',
        notify_days_before: 'notifyDaysBefore',
        visible_to_employee: 'visibleToEmployee',
        visible_to_manager: 'visibleToManager',
        employee_may_upload: 'employeeMayUpload',
      },
      check: (type) => {
        // A new type's unset fields take the defaults (an update keeps what the type has).
        for (const prop of Object.keys(DEFAULTS) as Array<keyof typeof DEFAULTS>)
          if (type[prop] === undefined) Object.assign(type, { [prop]: DEFAULTS[prop] });
        // Most distant reminder first, as they come (kept for a type that does not expire: unused until it does).
        type.notifyDaysBefore = [...type.notifyDaysBefore].sort((a, b) => b - a);
        return Promise.resolve();
      },
      listSpec: DOCUMENT_TYPE_LIST,
      checkDelete: async (id) => {
        const type = await this.repo.findOne({ where: { id } });
        if (type?.code)
          throw new DomainException('IN_USE', `Document type ${id} is the service's own (${type.code}) and cannot be deleted`);
      },
    });
  }

  /** The service's own type of `code` (seeded by a migration, never deleted). */
  async byCode(code: string): Promise<DocumentType> {
    return this.repo.findOneOrFail({ where: { code } });
  }

  /** Every type (a handful: read whole, for a caller's visible types or the expiry job's rules). */
  all(): Promise<DocumentType[]> {
    return this.repo.find({ order: { id: 'ASC' } });
  }

  byId(id: number): Promise<DocumentType | null> {
    return this.repo.findOne({ where: { id } });
  }
}

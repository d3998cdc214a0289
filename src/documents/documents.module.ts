import { DocumentsPersonalData } from './documents.personal-data';
import './documents.config';
import { DocumentsReactions } from './documents.reactions';
import { declareApiTag } from '../common/openapi/api-tags';
import { declareExtension } from '../common/meta/extensions';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EmployeesModule } from '../employees/employees.module';
import { ReferenceModule } from '../reference/reference.module';
import { UsersModule } from '../users/users.module';
import { DocumentAccessService } from './document-access.service';
import { DocumentFilesService } from './document-files.service';
import { DocumentJobsService } from './document-jobs.service';
import { DocumentTypesService } from './document-types.service';
import { DOCUMENT_CONTROLLERS } from './documents.controllers';
import { DocumentsController, EmployeeDocumentsController } from './documents.controller';
import { DocumentsRepository } from './documents.repository';
import { DocumentsService } from './documents.service';
import { DocumentWriterService } from './document-writer.service';
import { GeneratedDocumentsService } from './generated-documents.service';
import { DocumentFileRemoval, DocumentRecord, DocumentReminder, DocumentVersion } from './entities/document.entities';
import { DocumentType } from './entities/document-type.entity';

declareApiTag('Documents', 'Employee documents: types, uploads, versions, downloads, expiry', 250);

declareExtension({
  code: 'documents',
  label: 'Documents',
  features: ['employee-documents', 'document-types', 'expiry-reminders'],
});

/** Employee documents (issue 28, docs/api/decisions.md §14): types, documents and their versions in the file store, expiry reminders. */
@Module({
  imports: [
    EmployeesModule,
    ReferenceModule,
    UsersModule,
    TypeOrmModule.forFeature([DocumentType, DocumentRecord, DocumentVersion, DocumentReminder, DocumentFileRemoval]),
  ],
  controllers: [...DOCUMENT_CONTROLLERS, EmployeeDocumentsController, DocumentsController],
  providers: [
    DocumentsPersonalData,
    DocumentsReactions,
    DocumentTypesService,
    DocumentsService,
    DocumentAccessService,
    DocumentFilesService,
    DocumentWriterService,
    GeneratedDocumentsService,
    DocumentsRepository,
    DocumentJobsService,
  ],
  exports: [DocumentTypesService, GeneratedDocumentsService, DocumentJobsService],
})
export class DocumentsModule {}

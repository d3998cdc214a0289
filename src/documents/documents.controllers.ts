import { Type } from '@nestjs/common';
import { crudController } from '../common/crud/crud.controller';
import { DOCUMENT_TYPE_LIST, DocumentTypesService } from './document-types.service';
import { CreateDocumentTypeDto, DocumentTypeDto, UpdateDocumentTypeDto } from './dto/document-type.dto';

export const DOCUMENT_CONTROLLERS: Array<Type<unknown>> = [
  crudController<DocumentTypesService>({
    path: 'document-types',
    label: 'Document type',
    tag: 'Documents',
    dto: DocumentTypeDto,
    createDto: CreateDocumentTypeDto,
    updateDto: UpdateDocumentTypeDto,
    service: DocumentTypesService,
    crud: (s) => s.types,
    listSpec: DOCUMENT_TYPE_LIST,
    note: 'filters: expires. New types default to expires false, reminders [30, 7, 1], visible to the employee only.',
  }),
];

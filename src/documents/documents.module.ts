import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DocumentTypesService } from './document-types.service';
import { DOCUMENT_CONTROLLERS } from './documents.controllers';
import { DocumentType } from './entities/document-type.entity';

/** Employee documents (issue 28, API.md §14): the document types so far; the documents come next. */
@Module({
  imports: [TypeOrmModule.forFeature([DocumentType])],
  controllers: DOCUMENT_CONTROLLERS,
  providers: [DocumentTypesService],
  exports: [DocumentTypesService],
})
export class DocumentsModule {}

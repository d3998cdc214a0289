import './imports.config';
import { Module } from '@nestjs/common';
import { declareApiTag } from '../common/openapi/api-tags';
import { declareExtension } from '../common/meta/extensions';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ImportErrorRecord, ImportRecord } from './entities/import.entities';
import { ImportFiles } from './import-files';
import { ImportRunner } from './import-runner.service';
import { ImportsController } from './imports.controller';
import { ImportsRepository } from './imports.repository';
import { ImportsService } from './imports.service';

declareApiTag('Imports', 'CSV and XLSX files in: dry run, row errors, commit; templates', 240);

declareExtension({ code: 'imports', label: 'Imports and exports', features: ['csv', 'xlsx', 'dry-run', 'exports'] });

/** Imports of CSV and XLSX files: the kinds come from the domain modules (common/import ImportKinds). */
@Module({
  imports: [TypeOrmModule.forFeature([ImportRecord, ImportErrorRecord])],
  controllers: [ImportsController],
  providers: [ImportsService, ImportRunner, ImportsRepository, ImportFiles],
  exports: [ImportsService],
})
export class ImportsModule {}

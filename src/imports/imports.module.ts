import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ImportErrorRecord, ImportRecord } from './entities/import.entities';
import { ImportFiles } from './import-files';
import { ImportRunner } from './import-runner.service';
import { ImportsController } from './imports.controller';
import { ImportsRepository } from './imports.repository';
import { ImportsService } from './imports.service';

/** Imports of CSV and XLSX files: the kinds come from the domain modules (common/import ImportKinds). */
@Module({
  imports: [TypeOrmModule.forFeature([ImportRecord, ImportErrorRecord])],
  controllers: [ImportsController],
  providers: [ImportsService, ImportRunner, ImportsRepository, ImportFiles],
  exports: [ImportsService],
})
export class ImportsModule {}

import { Module } from '@nestjs/common';
import { AuditPersonalData } from './audit.personal-data';
import { declareApiTag } from '../common/openapi/api-tags';
import { declareExtension } from '../common/meta/extensions';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EmployeesModule } from '../employees/employees.module';
import { AuditController } from './audit.controller';
import { AuditService } from './audit.service';
import { AuditEntry } from './entities/audit-entry.entity';

declareApiTag('Audit log', 'Who changed what, when', 220);

declareExtension({ code: 'audit', label: 'Audit log', features: ['audit-log'] });

/** The audit log's API and retention; every module records its changes with common/audit `recordAudit`. */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEntry]), EmployeesModule],
  controllers: [AuditController],
  providers: [AuditService, AuditPersonalData],
  exports: [AuditService],
})
export class AuditModule {}

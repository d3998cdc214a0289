import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { declareExtension } from '../common/meta/extensions';
import { declareApiTag } from '../common/openapi/api-tags';
import { declareEmployeeProperty } from '../employees/dto/employee.dto';
import { EmployeesModule } from '../employees/employees.module';
import { EmployeePrivacyExtension, PRIVACY_PROPERTY } from './employee-privacy.extension';
import { PRIVACY_ENTITIES } from './entities/employee-privacy.entity';
import { PersonalDataExportRunner } from './personal-data-export.runner';
import { PersonalDataExportsController } from './personal-data-exports.controller';
import { PersonalDataExportsService } from './personal-data-exports.service';
import { PrivacyController } from './privacy.controller';
import { PrivacyService } from './privacy.service';
import { RetentionPoliciesController, RetentionPreviewController } from './retention.controller';
import { RetentionService } from './retention.service';

declareApiTag(
  'Privacy',
  'A person’s data on request (subject access), retention by policy, leavers anonymised while the payroll books stay whole',
  128,
);

declareExtension({ code: 'privacy', label: 'Privacy', features: ['anonymisation', 'legal-hold', 'subject-access', 'retention'] });

declareEmployeeProperty(
  PRIVACY_PROPERTY,
  {
    body: '{"legal_hold": true|false}: a legal hold blocks anonymisation (an Admin sets it; 403 for others); anonymised_at is read-only (docs/api/privacy.md)',
    employee:
      '{legal_hold, anonymised_at}: legal_hold null for callers other than Admins and Restricted Admins; anonymised_at null until anonymised',
    item: null,
  },
  {
    body: {
      type: 'object',
      additionalProperties: false,
      properties: {
        legal_hold: { type: 'boolean' },
        anonymised_at: {
          type: 'string',
          format: 'date-time',
          nullable: true,
          readOnly: true,
          description: 'read-only: ignored when sent',
        },
      },
    },
    read: {
      type: 'object',
      required: ['legal_hold', 'anonymised_at'],
      properties: {
        legal_hold: { type: 'boolean', nullable: true },
        anonymised_at: { type: 'string', format: 'date-time', nullable: true },
      },
    },
  },
);

/** Privacy (issue 69, docs/api/privacy.md): joins from its own folder; the modules that hold personal data register it (common/privacy). */
@Module({
  imports: [EmployeesModule, TypeOrmModule.forFeature(PRIVACY_ENTITIES)],
  controllers: [PrivacyController, PersonalDataExportsController, RetentionPoliciesController, RetentionPreviewController],
  providers: [PrivacyService, EmployeePrivacyExtension, PersonalDataExportsService, PersonalDataExportRunner, RetentionService],
})
export class PrivacyModule {}

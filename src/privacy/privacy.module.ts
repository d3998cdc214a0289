import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { declareExtension } from '../common/meta/extensions';
import { declareApiTag } from '../common/openapi/api-tags';
import { EmployeesModule } from '../employees/employees.module';
import { PRIVACY_ENTITIES } from './entities/employee-privacy.entity';
import { PrivacyController } from './privacy.controller';
import { PrivacyService } from './privacy.service';

declareApiTag(
  'Privacy',
  'A leaver anonymised while the payroll books stay whole (subject access and retention: issue 69, under way)',
  128,
);

declareExtension({ code: 'privacy', label: 'Privacy', features: ['anonymisation'] });

/** Privacy (issue 69, docs/api/privacy.md): joins from its own folder; the modules that hold personal data register it (common/privacy). */
@Module({
  imports: [EmployeesModule, TypeOrmModule.forFeature(PRIVACY_ENTITIES)],
  controllers: [PrivacyController],
  providers: [PrivacyService],
})
export class PrivacyModule {}

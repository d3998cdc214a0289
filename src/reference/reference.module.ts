import { Module } from '@nestjs/common';
import { declareApiTag } from '../common/openapi/api-tags';
import { TypeOrmModule } from '@nestjs/typeorm';
import { REFERENCE_ENTITIES } from './entities/reference.entities';
import { REFERENCE_CONTROLLERS } from './reference.controllers';
import { ReferenceRepository } from './reference.repository';
import { ReferenceService } from './reference.service';

declareApiTag(
  'Reference data',
  'Departments, job titles, pay grades, employment statuses, nationalities, languages, skills...',
  100,
);

/** Departments (a tree), job titles, pay grades, employment statuses, nationalities, languages, skills, certifications, education levels. */
@Module({
  imports: [TypeOrmModule.forFeature(REFERENCE_ENTITIES)],
  controllers: REFERENCE_CONTROLLERS,
  providers: [ReferenceService, ReferenceRepository],
  exports: [ReferenceService],
})
export class ReferenceModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { declareExtension } from '../common/meta/extensions';
import { declareApiTag } from '../common/openapi/api-tags';
import { CustomFieldsController } from './custom-fields.controller';
import { CustomFieldsRepository } from './custom-fields.repository';
import { CustomFieldsService } from './custom-fields.service';
import { CustomField } from './entities/custom-field.entity';

declareApiTag(
  'Custom fields',
  "The company's own facts about its people: typed definitions, who sees and edits their values",
  126,
);

declareExtension({
  code: 'custom-fields',
  label: 'Custom fields',
  features: ['definitions'],
});

/** Custom fields (issue 66, docs/api/custom-fields.md): definitions now; values on employees next. */
@Module({
  imports: [TypeOrmModule.forFeature([CustomField])],
  controllers: [CustomFieldsController],
  providers: [CustomFieldsService, CustomFieldsRepository],
  exports: [CustomFieldsService],
})
export class CustomFieldsModule {}

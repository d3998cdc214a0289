import { CustomFieldsPersonalData } from './custom-fields.personal-data';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { declareExtension } from '../common/meta/extensions';
import { declareApiTag } from '../common/openapi/api-tags';
import { CustomFieldsController } from './custom-fields.controller';
import { CustomFieldsRepository } from './custom-fields.repository';
import { CustomFieldsService } from './custom-fields.service';
import { CustomField } from './entities/custom-field.entity';
import { declareEmployeeProperty } from '../employees/dto/employee.dto';
import { declareDatedProperty } from '../employees/history/dto/employment-history.dto';
import { EmployeesModule } from '../employees/employees.module';
import { CustomFieldDefinitions } from './values/custom-field-definitions';
import { CustomFieldValue } from './values/custom-field-value.entity';
import { CustomFieldValuesRepository } from './values/custom-field-values.repository';
import { EmployeeCustomFields } from './values/employee-custom-fields';
import { DatedCustomFields } from './values/dated-custom-fields';
import { PROPERTY } from './values/custom-field-codec';
import { DefinitionChanges } from './values/definition-changes';
import { CustomFieldDocument } from './values/custom-field-document';

declareApiTag(
  'Custom fields',
  "The company's own facts about its people: typed definitions, who sees and edits their values",
  126,
);

declareExtension({
  code: 'custom-fields',
  label: 'Custom fields',
  features: ['definitions', 'values'],
});

declareEmployeeProperty(PROPERTY, {
  body:
    'custom field values by key (GET /custom-fields): omitted keys are unchanged, null clears; a wrong type or option, a ' +
    'missing required value or a duplicate of a unique one is 400 naming custom_fields.<key> (docs/api/custom-fields.md)',
  employee: 'the values of the custom fields the caller sees, by key (null: none, or a personal value it may not see)',
  item: 'the values of the custom fields marked in_list that the caller sees, by key',
});

declareDatedProperty(PROPERTY, {
  change: 'the dated custom fields it sets, by key (null clears): only fields with dated: true (docs/api/custom-fields.md)',
  segment:
    'the dated custom fields the caller sees, by key, in force over the segment (null: none, or a personal value it may not see)',
});

/** Custom fields (issue 66, docs/api/custom-fields.md): definitions, and their values on employees (EmployeeCustomFields). */
@Module({
  imports: [TypeOrmModule.forFeature([CustomField, CustomFieldValue]), EmployeesModule],
  controllers: [CustomFieldsController],
  providers: [
    CustomFieldsPersonalData,
    CustomFieldsService,
    CustomFieldsRepository,
    CustomFieldDefinitions,
    CustomFieldValuesRepository,
    EmployeeCustomFields,
    DatedCustomFields,
    DefinitionChanges,
    CustomFieldDocument,
  ],
  exports: [CustomFieldsService],
})
export class CustomFieldsModule {}

import { Type } from '@nestjs/common';
import { crudController, CrudControllerSpec } from '../common/crud/crud.controller';
import {
  CreateDepartmentDto,
  CreatePayGradeDto,
  CreateReferenceDto,
  DepartmentDto,
  PayGradeDto,
  ReferenceDto,
  UpdateDepartmentDto,
  UpdatePayGradeDto,
  UpdateReferenceDto,
} from './dto/reference.dto';
import { DEPARTMENT_LIST, NAMED_KINDS, NamedKind, ReferenceService } from './reference.service';

const referenceController = (spec: Omit<CrudControllerSpec<ReferenceService>, 'service'>) =>
  crudController<ReferenceService>({ ...spec, service: ReferenceService });

export const REFERENCE_CONTROLLERS: Array<Type<unknown>> = [
  referenceController({
    path: 'departments',
    label: 'Department',
    dto: DepartmentDto,
    createDto: CreateDepartmentDto,
    updateDto: UpdateDepartmentDto,
    crud: (s) => s.departments,
    listSpec: DEPARTMENT_LIST,
  }),
  referenceController({
    path: 'pay-grades',
    label: 'Pay grade',
    dto: PayGradeDto,
    createDto: CreatePayGradeDto,
    updateDto: UpdatePayGradeDto,
    crud: (s) => s.payGrades,
  }),
  ...(Object.entries(NAMED_KINDS) as Array<[NamedKind, { label: string }]>).map(([path, { label }]) =>
    referenceController({
      path,
      label,
      dto: ReferenceDto,
      createDto: CreateReferenceDto,
      updateDto: UpdateReferenceDto,
      crud: (s) => s.crud(path),
    }),
  ),
];

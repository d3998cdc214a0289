import { Body, Controller, Delete, Get, HttpCode, Inject, Injectable, Param, Post, Put, Query, Type } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, Levels } from '../common/auth/access.decorators';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { SearchableListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { createValidationPipe } from '../common/validation/validation-pipe';
import { UserLevel } from '../common/auth/user-level';
import {
  CreateDepartmentDto,
  CreatePayGradeDto,
  CreateReferenceDto,
  DeletedDto,
  DepartmentDto,
  PayGradeDto,
  ReferenceDto,
  UpdateDepartmentDto,
  UpdatePayGradeDto,
  UpdateReferenceDto,
} from './dto/reference.dto';
import { ReferenceCrud } from './reference-crud';
import { NAMED_KINDS, NamedKind, ReferenceService } from './reference.service';

export interface CrudControllerSpec<S> {
  path: string;
  label: string;
  /** Swagger tag. */
  tag?: string;
  dto: Type<unknown>;
  createDto: Type<unknown>;
  updateDto: Type<unknown>;
  /** The provider holding the ReferenceCrud. */
  service: Type<S>;
  crud: (service: S) => ReferenceCrud<never, unknown>;
  sortable: string;
  /** Who writes (default Admin). */
  writers?: UserLevel[];
}

type ControllerSpec = CrudControllerSpec<ReferenceService>;

/**
 * One controller class per reference resource, same routes and rules: any authenticated user
 * reads (list envelope, paging, sort by id or name, search by name); Admins write.
 */
export function crudController<S>(spec: CrudControllerSpec<S>): Type<unknown> {
  const writers = spec.writers ?? ['Admin'];
  const createPipe = createValidationPipe(spec.createDto);
  const updatePipe = createValidationPipe(spec.updateDto);

  @ApiTags(spec.tag ?? 'Reference data')
  @ApiBearerAuth()
  @Controller(spec.path)
  @Injectable()
  class ReferenceController {
    constructor(@Inject(spec.service) readonly service: S) {}

    @Get()
    @Authenticated()
    @ApiOperation({
      summary: `List ${spec.label.toLowerCase()}s`,
      description: `sortField: ${spec.sortable}; search matches the name.`,
    })
    @ApiListEnvelope(spec.dto)
    @ApiErrors(400, 401)
    list(@Query() query: SearchableListQueryDto): Promise<Page<unknown>> {
      return spec.crud(this.service).list(query);
    }

    @Get(':id')
    @Authenticated()
    @ApiOperation({ summary: `One ${spec.label.toLowerCase()}` })
    @ApiOkEnvelope(spec.dto)
    @ApiErrors(400, 401, 404)
    get(@Param('id', new IdParamPipe()) id: number): Promise<unknown> {
      return spec.crud(this.service).get(id);
    }

    @Post()
    @HttpCode(200)
    @Levels(...writers)
    @ApiOperation({ summary: `Create a ${spec.label.toLowerCase()} (${writers.join(', ')})` })
    @ApiBody({ type: spec.createDto })
    @ApiOkEnvelope(spec.dto)
    @ApiErrors(400, 401, 403, 409)
    create(@Body(createPipe) body: Record<string, unknown>): Promise<unknown> {
      return spec.crud(this.service).create(body);
    }

    @Put(':id')
    @Levels(...writers)
    @ApiOperation({ summary: `Change a ${spec.label.toLowerCase()} (${writers.join(', ')})` })
    @ApiBody({ type: spec.updateDto })
    @ApiOkEnvelope(spec.dto)
    @ApiErrors(400, 401, 403, 404, 409)
    update(@Param('id', new IdParamPipe()) id: number, @Body(updatePipe) body: Record<string, unknown>): Promise<unknown> {
      return spec.crud(this.service).update(id, body);
    }

    @Delete(':id')
    @Levels(...writers)
    @ApiOperation({ summary: `Delete a ${spec.label.toLowerCase()} (${writers.join(', ')}); 409 IN_USE while referenced` })
    @ApiOkEnvelope(DeletedDto)
    @ApiErrors(400, 401, 403, 404, 409)
    remove(@Param('id', new IdParamPipe()) id: number): Promise<DeletedDto> {
      return spec.crud(this.service).remove(id);
    }
  }
  Object.defineProperty(ReferenceController, 'name', { value: `${spec.label.replace(/\s/g, '')}Controller` });
  return ReferenceController;
}

const referenceController = (spec: Omit<ControllerSpec, 'service'>) =>
  crudController<ReferenceService>({ ...spec, service: ReferenceService });

export const REFERENCE_CONTROLLERS: Array<Type<unknown>> = [
  referenceController({
    path: 'departments',
    label: 'Department',
    dto: DepartmentDto,
    createDto: CreateDepartmentDto,
    updateDto: UpdateDepartmentDto,
    crud: (s) => s.departments as ReferenceCrud<never, unknown>,
    sortable: 'id, name; filters: parent',
  }),
  referenceController({
    path: 'pay-grades',
    label: 'Pay grade',
    dto: PayGradeDto,
    createDto: CreatePayGradeDto,
    updateDto: UpdatePayGradeDto,
    crud: (s) => s.payGrades as ReferenceCrud<never, unknown>,
    sortable: 'id, name',
  }),
  ...(Object.entries(NAMED_KINDS) as Array<[NamedKind, { label: string }]>).map(([path, { label }]) =>
    referenceController({
      path,
      label,
      dto: ReferenceDto,
      createDto: CreateReferenceDto,
      updateDto: UpdateReferenceDto,
      crud: (s) => s.crud(path) as ReferenceCrud<never, unknown>,
      sortable: 'id, name',
    }),
  ),
];

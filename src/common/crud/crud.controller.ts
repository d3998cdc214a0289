import { ApiInt } from '../openapi/api-int';
import { acceptReadOnly } from '../validation/read-only';
import { Exportable } from '../export/exportable';
import { Body, Controller, Delete, Get, HttpCode, Inject, Injectable, Param, Post, Put, Query, Type } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Levels } from '../auth/access.decorators';
import { USER_LEVELS, UserLevel } from '../auth/user-level';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../envelope/api-envelope.decorators';
import { SearchableListQueryDto } from '../paging/list-query.dto';
import { Page } from '../paging/page';
import { IdParamPipe } from '../validation/id-param.pipe';
import { createValidationPipe } from '../validation/validation-pipe';
import { ApiListQuery } from '../paging/api-list-query.decorator';
import { ListSpec } from '../paging/list-request';
import { crudListSpec, CrudOperations } from './crud';

export class DeletedDto {
  @ApiInt({ example: 5 }) id: number;
}

export interface CrudControllerSpec<S> {
  path: string;
  label: string;
  /** Swagger tag. */
  tag?: string;
  dto: Type<unknown>;
  createDto: Type<unknown>;
  updateDto: Type<unknown>;
  /** The provider holding the CRUD (a ReferenceCrud). */
  service: Type<S>;
  crud: (service: S) => CrudOperations;
  /** The list's sort and filter fields beyond id and name: the same object the service's ReferenceCrud is given. */
  listSpec?: Partial<ListSpec>;
  /** What the list's description adds (a rule of the resource). */
  note?: string;
  /** Who writes (default Admin). */
  writers?: UserLevel[];
  /** Who reads (default every authenticated user). */
  readers?: UserLevel[];
}

/**
 * One controller class per resource, same routes and rules: any authenticated user reads (list
 * envelope, paging, sort, search by name); `writers` (default Admin) write.
 */
export function crudController<S>(spec: CrudControllerSpec<S>): Type<unknown> {
  const writers = spec.writers ?? ['Admin'];
  const readers = spec.readers ?? [...USER_LEVELS];
  const createPipe = createValidationPipe(spec.createDto);
  acceptReadOnly(spec.updateDto, spec.dto); // a PUT accepts what its GET returned (the id)
  const updatePipe = createValidationPipe(spec.updateDto);

  @ApiTags(spec.tag ?? 'Reference data')
  @ApiBearerAuth()
  @Controller(spec.path)
  @Injectable()
  class ReferenceController {
    constructor(@Inject(spec.service) readonly service: S) {}

    @Get()
    @Levels(...readers)
    @ApiOperation({
      summary: `List ${spec.label.toLowerCase()}s`,
      description: ['search matches the name.', spec.note].filter(Boolean).join(' '),
    })
    @ApiListQuery(crudListSpec(spec.listSpec))
    @ApiListEnvelope(spec.dto)
    @Exportable(`${spec.label.toLowerCase().replace(/\s+/g, '-')}s`, spec.dto)
    @ApiErrors(400, 401)
    list(@Query() query: SearchableListQueryDto): Promise<Page<unknown>> {
      return spec.crud(this.service).list(query);
    }

    @Get(':id')
    @Levels(...readers)
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
  // The class name makes the operation ids: 'Pay grade' → listPayGrade.
  const name = spec.label.replace(/(?:^|\s+)(\w)/g, (_, c: string) => c.toUpperCase());
  Object.defineProperty(ReferenceController, 'name', { value: `${name}Controller` });
  return ReferenceController;
}

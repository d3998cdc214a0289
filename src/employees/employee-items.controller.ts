import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Type } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { ApiListQuery } from '../common/paging/api-list-query.decorator';
import { Page } from '../common/paging/page';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { createValidationPipe } from '../common/validation/validation-pipe';
import {
  CertificationItemDto,
  CreateCertificationItemDto,
  CreateEducationItemDto,
  CreateLanguageItemDto,
  CreateSkillItemDto,
  EducationItemDto,
  ItemDeletedDto,
  LanguageItemDto,
  SetStatusMessageDto,
  SkillItemDto,
  StatusHistoryItemDto,
  StatusMessageDto,
} from './dto/employee-items.dto';
import { EmployeeItemsService, ITEM_KINDS, ITEM_LIST_SPEC, ItemKind, STATUS_HISTORY_SPEC } from './employee-items.service';

const ITEM_DTOS: Record<ItemKind['path'], [Type<unknown>, Type<unknown>]> = {
  skills: [SkillItemDto, CreateSkillItemDto],
  educations: [EducationItemDto, CreateEducationItemDto],
  certifications: [CertificationItemDto, CreateCertificationItemDto],
  languages: [LanguageItemDto, CreateLanguageItemDto],
};

/** GET, POST and DELETE of one kind of employee sub-record. */
function itemsController(kind: ItemKind): Type<unknown> {
  const [dto, createDto] = ITEM_DTOS[kind.path];
  const createPipe = createValidationPipe(createDto);
  const who = kind.selfEditable
    ? 'Admin, Restricted Admin in scope, or the employee itself'
    : 'Admin or Restricted Admin in scope';

  @ApiTags('Employees')
  @ApiBearerAuth()
  @Controller(`employees/:id/${kind.path}`)
  class ItemsController {
    constructor(readonly items: EmployeeItemsService) {}

    @Get()
    @Authenticated()
    @ApiOperation({ summary: `The employee's ${kind.path}` })
    @ApiListQuery(ITEM_LIST_SPEC)
    @ApiListEnvelope(dto)
    @ApiErrors(400, 401, 404)
    list(
      @CurrentUser() caller: AuthUser,
      @Param('id', new IdParamPipe()) id: number,
      @Query() query: ListQueryDto,
    ): Promise<Page<unknown>> {
      return this.items.list(caller, id, kind, query);
    }

    @Post()
    @HttpCode(200)
    @Authenticated()
    @ApiOperation({ summary: `Add a ${kind.label.toLowerCase()} (${who})` })
    @ApiBody({ type: createDto })
    @ApiOkEnvelope(dto)
    @ApiErrors(400, 401, 403, 404)
    create(
      @CurrentUser() caller: AuthUser,
      @Param('id', new IdParamPipe()) id: number,
      @Body(createPipe) body: Record<string, unknown>,
    ): Promise<unknown> {
      return this.items.create(caller, id, kind, body);
    }

    @Delete(':itemId')
    @Authenticated()
    @ApiOperation({ summary: `Remove a ${kind.label.toLowerCase()} (${who})` })
    @ApiOkEnvelope(ItemDeletedDto)
    @ApiErrors(400, 401, 403, 404)
    remove(
      @CurrentUser() caller: AuthUser,
      @Param('id', new IdParamPipe()) id: number,
      @Param('itemId', new IdParamPipe('itemId')) itemId: number,
    ): Promise<ItemDeletedDto> {
      return this.items.remove(caller, id, kind, itemId);
    }
  }
  Object.defineProperty(ItemsController, 'name', { value: `Employee${kind.label}sController` });
  return ItemsController;
}

@ApiTags('Employees')
@ApiBearerAuth()
@Controller('employees/:id/status')
export class EmployeeStatusController {
  constructor(private readonly items: EmployeeItemsService) {}

  @Get()
  @Authenticated()
  @ApiOperation({ summary: "The employee's current status message" })
  @ApiOkEnvelope(StatusMessageDto)
  @ApiErrors(400, 401, 404)
  get(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<StatusMessageDto> {
    return this.items.status(caller, id);
  }

  @Post()
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Set the status message (kept in the history)',
    description: 'The employee itself, its Manager, a Restricted Admin in scope, or an Admin.',
  })
  @ApiOkEnvelope(StatusMessageDto)
  @ApiErrors(400, 401, 404)
  set(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() dto: SetStatusMessageDto,
  ): Promise<StatusMessageDto> {
    return this.items.setStatus(caller, id, dto.status);
  }

  @Get('history')
  @Authenticated()
  @ApiOperation({ summary: 'Earlier status messages, newest first' })
  @ApiListQuery(STATUS_HISTORY_SPEC)
  @ApiListEnvelope(StatusHistoryItemDto)
  @ApiErrors(400, 401, 404)
  history(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: ListQueryDto,
  ): Promise<Page<StatusHistoryItemDto>> {
    return this.items.statusHistory(caller, id, query);
  }
}

export const EMPLOYEE_ITEM_CONTROLLERS = [...Object.values(ITEM_KINDS).map(itemsController), EmployeeStatusController];

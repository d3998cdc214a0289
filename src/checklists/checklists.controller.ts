import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Levels } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { DeletedDto } from '../common/crud/crud.controller';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { ApiListQuery } from '../common/paging/api-list-query.decorator';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { ChecklistTemplatesService, TEMPLATE_LIST_SPEC } from './checklist-templates.service';
import { CHECKLIST_LIST_SPEC } from './checklists.repository';
import { ChecklistsService } from './checklists.service';
import {
  ChecklistDto,
  ChecklistListQueryDto,
  ChecklistTemplateDto,
  CreateChecklistTemplateDto,
  UpdateChecklistTemplateDto,
} from './dto/checklists.dto';

const TEMPLATE_NOTE =
  'A template starts a checklist for each employee it applies to when what triggers it is recorded (a hire, a termination ' +
  'date, a dated change of department or of `conditions.fields`), also for a future effective date; each item is a task of ' +
  'its assignees, due `offset_days` from the effective date. Changing or deleting a template changes no checklist already started.';

/** /checklist-templates (issue 67, docs/api/checklists.md): the Admin's. */
@ApiTags('Checklists')
@ApiBearerAuth()
@Controller('checklist-templates')
export class ChecklistTemplatesController {
  constructor(private readonly templates: ChecklistTemplatesService) {}

  @Get()
  @Levels('Admin')
  @ApiOperation({ summary: 'Checklist templates', description: TEMPLATE_NOTE })
  @ApiListQuery(TEMPLATE_LIST_SPEC)
  @ApiListEnvelope(ChecklistTemplateDto)
  @ApiErrors(400, 401, 403)
  list(@Query() query: ListQueryDto): Promise<Page<ChecklistTemplateDto>> {
    return this.templates.list(query);
  }

  @Get(':id')
  @Levels('Admin')
  @ApiOperation({ summary: 'A checklist template' })
  @ApiOkEnvelope(ChecklistTemplateDto)
  @ApiErrors(400, 401, 403, 404)
  get(@Param('id', new IdParamPipe()) id: number): Promise<ChecklistTemplateDto> {
    return this.templates.get(id);
  }

  @Post()
  @HttpCode(200)
  @Levels('Admin')
  @ApiOperation({ summary: 'Create a checklist template', description: TEMPLATE_NOTE })
  @ApiOkEnvelope(ChecklistTemplateDto)
  @ApiErrors(400, 401, 403)
  create(@Body() dto: CreateChecklistTemplateDto): Promise<ChecklistTemplateDto> {
    return this.templates.create(dto);
  }

  @Put(':id')
  @Levels('Admin')
  @ApiOperation({ summary: 'Change a checklist template (what the body names; items and conditions: the whole of each)' })
  @ApiOkEnvelope(ChecklistTemplateDto)
  @ApiErrors(400, 401, 403, 404)
  update(@Param('id', new IdParamPipe()) id: number, @Body() dto: UpdateChecklistTemplateDto): Promise<ChecklistTemplateDto> {
    return this.templates.update(id, dto);
  }

  @Delete(':id')
  @Levels('Admin')
  @ApiOperation({ summary: 'Delete a checklist template (checklists started from it stay)' })
  @ApiOkEnvelope(DeletedDto)
  @ApiErrors(400, 401, 403, 404)
  remove(@Param('id', new IdParamPipe()) id: number): Promise<DeletedDto> {
    return this.templates.remove(id);
  }
}

/** /checklists (issue 67): the checklists of the employees the caller sees, and of the items it holds. */
@ApiTags('Checklists')
@ApiBearerAuth()
@Controller('checklists')
export class ChecklistsController {
  constructor(private readonly checklists: ChecklistsService) {}

  @Get()
  @Authenticated()
  @ApiOperation({
    summary: 'Checklists of the employees the caller sees',
    description:
      "The Admins all; a Restricted Admin those of its departments; a Manager its reports' and its own; an Employee its own.",
  })
  @ApiListQuery(CHECKLIST_LIST_SPEC)
  @ApiListEnvelope(ChecklistDto)
  @ApiErrors(400, 401)
  list(@CurrentUser() caller: AuthUser, @Query() query: ChecklistListQueryDto): Promise<Page<ChecklistDto>> {
    return this.checklists.list(caller, query);
  }

  @Get(':id')
  @Authenticated()
  @ApiOperation({ summary: "A checklist: its employee's readers and its items' assignees see it" })
  @ApiOkEnvelope(ChecklistDto)
  @ApiErrors(400, 401, 404)
  get(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<ChecklistDto> {
    return this.checklists.get(caller, id);
  }

  @Post(':id/items/:item/complete')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Complete an item (an assignee, or an administrator of the employee); its tasks complete with it',
    description: 'The checklist is Completed once every required item is. 409 INVALID_STATE when the item is not Open.',
  })
  @ApiOkEnvelope(ChecklistDto)
  @ApiErrors(400, 401, 403, 404, 409)
  complete(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('item', new IdParamPipe()) item: number,
  ): Promise<ChecklistDto> {
    return this.checklists.complete(caller, id, item);
  }
}

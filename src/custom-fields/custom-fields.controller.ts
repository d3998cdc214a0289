import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Levels } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { ApiListQuery } from '../common/paging/api-list-query.decorator';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { CUSTOM_FIELD_LIST, CustomFieldsService } from './custom-fields.service';
import { CreateCustomFieldDto, CustomFieldDeletedDto, CustomFieldDto, UpdateCustomFieldDto } from './dto/custom-fields.dto';

@ApiTags('Custom fields')
@ApiBearerAuth()
@Controller('custom-fields')
export class CustomFieldsController {
  constructor(private readonly fields: CustomFieldsService) {}

  @Get()
  @Authenticated()
  @ApiOperation({
    summary: 'Custom field definitions',
    description:
      "An Admin's are all of them; any other caller's those whose values its level sees, or it sees on its own record (self).",
  })
  @ApiListEnvelope(CustomFieldDto)
  @ApiListQuery(CUSTOM_FIELD_LIST)
  @ApiErrors(400, 401)
  list(@CurrentUser() caller: AuthUser, @Query() query: ListQueryDto): Promise<Page<CustomFieldDto>> {
    return this.fields.list(caller, query);
  }

  @Get(':id')
  @Authenticated()
  @ApiOperation({ summary: 'A custom field definition (404 to a caller who does not see the field)' })
  @ApiOkEnvelope(CustomFieldDto)
  @ApiErrors(400, 401, 404)
  get(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<CustomFieldDto> {
    return this.fields.get(caller, id);
  }

  @Post()
  @HttpCode(200)
  @Levels('Admin')
  @ApiOperation({ summary: 'Define a custom field (at most 200; the key is unique and immutable)' })
  @ApiOkEnvelope(CustomFieldDto)
  @ApiErrors(400, 401, 403)
  create(@Body() dto: CreateCustomFieldDto): Promise<CustomFieldDto> {
    return this.fields.create(dto);
  }

  @Put(':id')
  @Levels('Admin')
  @ApiOperation({ summary: 'Change a custom field definition (what the body names; the key never changes)' })
  @ApiOkEnvelope(CustomFieldDto)
  @ApiErrors(400, 401, 403, 404, 409)
  update(@Param('id', new IdParamPipe()) id: number, @Body() dto: UpdateCustomFieldDto): Promise<CustomFieldDto> {
    return this.fields.update(id, dto);
  }

  @Delete(':id')
  @Levels('Admin')
  @ApiOperation({ summary: 'Delete a custom field definition' })
  @ApiOkEnvelope(CustomFieldDeletedDto)
  @ApiErrors(400, 401, 403, 404)
  remove(@Param('id', new IdParamPipe()) id: number): Promise<CustomFieldDeletedDto> {
    return this.fields.remove(id);
  }
}

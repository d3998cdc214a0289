import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Levels } from '../common/auth/access.decorators';
import { DeletedDto } from '../common/crud/crud.controller';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { ApiListQuery } from '../common/paging/api-list-query.decorator';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import {
  CreateNotificationTemplateDto,
  NotificationTemplateDto,
  PreviewNotificationTemplateDto,
  RenderedTemplateDto,
  UpdateNotificationTemplateDto,
} from './dto/notification.dto';
import { NotificationTemplatesService } from './notification-templates.service';
import { NOTIFICATION_TEMPLATE_LIST_SPEC } from './notifications.repository';

const RULES =
  'Handlebars checked like payslip templates (no helpers but if/unless/each, no partials, bounded in time and size); ' +
  "a name the kind's data lacks is refused. Data: recipient {name, username}, notification {kind, title, body, url, " +
  'created_at}, company {name}, preferences_url; the digest has count and items [{kind, title, body, url, created_at}] ' +
  'instead of notification. Subject and text print values as they are, HTML escapes them.';

/** The Admins' e-mail templates per notification kind and language (docs/api/decisions.md §16). */
@ApiTags('Notifications')
@ApiBearerAuth()
@Controller('notification-templates')
@Levels('Admin')
export class NotificationTemplatesController {
  constructor(private readonly templates: NotificationTemplatesService) {}

  @Get()
  @ApiOperation({
    summary: 'The templates Admins wrote (Admin); a kind without one uses the shipped English template',
    description: 'filters: kind, lang.',
  })
  @ApiListQuery(NOTIFICATION_TEMPLATE_LIST_SPEC)
  @ApiListEnvelope(NotificationTemplateDto)
  @ApiErrors(400, 401, 403)
  list(@Query() query: ListQueryDto): Promise<Page<NotificationTemplateDto>> {
    return this.templates.list(query);
  }

  @Post('preview')
  @HttpCode(200)
  @ApiOperation({
    summary: "A kind's e-mail rendered with sample data (Admin)",
    description: `The parts given, the rest from the kind's template in lang (the shipped one when none was written). ${RULES}`,
  })
  @ApiOkEnvelope(RenderedTemplateDto)
  @ApiErrors(400, 401, 403)
  preview(@Body() dto: PreviewNotificationTemplateDto): Promise<RenderedTemplateDto> {
    return this.templates.preview(dto);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One template (Admin)' })
  @ApiOkEnvelope(NotificationTemplateDto)
  @ApiErrors(400, 401, 403, 404)
  get(@Param('id', new IdParamPipe()) id: number): Promise<NotificationTemplateDto> {
    return this.templates.get(id);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: "A kind's template in a language (Admin); one per kind and language (409 DUPLICATE)",
    description: `Audited. ${RULES}`,
  })
  @ApiOkEnvelope(NotificationTemplateDto)
  @ApiErrors(400, 401, 403, 409)
  create(@Body() dto: CreateNotificationTemplateDto): Promise<NotificationTemplateDto> {
    return this.templates.create(dto);
  }

  @Put(':id')
  @ApiOperation({ summary: "Changes a template's parts (Admin)", description: `Audited. ${RULES}` })
  @ApiOkEnvelope(NotificationTemplateDto)
  @ApiErrors(400, 401, 403, 404)
  update(
    @Param('id', new IdParamPipe()) id: number,
    @Body() dto: UpdateNotificationTemplateDto,
  ): Promise<NotificationTemplateDto> {
    return this.templates.update(id, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Deletes a template (Admin): its kind and language fall back to English, then to the shipped one' })
  @ApiOkEnvelope(DeletedDto)
  @ApiErrors(400, 401, 403, 404)
  remove(@Param('id', new IdParamPipe()) id: number): Promise<DeletedDto> {
    return this.templates.remove(id);
  }
}

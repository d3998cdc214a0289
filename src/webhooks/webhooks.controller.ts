import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Levels } from '../common/auth/access.decorators';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { DeletedDto } from '../common/crud/crud.controller';
import { CreateWebhookDto, UpdateWebhookDto, WebhookDeliveryDto, WebhookDto, WebhookWithSecretDto } from './dto/webhook.dto';
import { ApiListQuery } from '../common/paging/api-list-query.decorator';
import { DELIVERY_LIST_SPEC, WEBHOOK_LIST_SPEC, WebhooksService } from './webhooks.service';

const SIGNED =
  'Deliveries are POSTs of {type, timestamp, data} signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature); ' +
  'URLs whose host does not resolve to globally reachable addresses only (loopback, private, link-local, metadata, documentation, reserved: the IANA special-purpose ranges) are refused (400 WEBHOOK_URL_NOT_ALLOWED) unless WEBHOOK_ALLOW_PRIVATE=true.';

@ApiTags('Webhooks')
@ApiBearerAuth()
@Controller('webhooks')
@Levels('Admin')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @ApiOperation({ summary: 'Webhook subscriptions (never their secrets)' })
  @ApiListQuery(WEBHOOK_LIST_SPEC)
  @ApiListEnvelope(WebhookDto)
  @ApiErrors(400, 401, 403)
  list(@Query() query: ListQueryDto): Promise<Page<WebhookDto>> {
    return this.webhooks.list(query);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Subscribe: the answer holds the signing secret, shown this once', description: SIGNED })
  @ApiOkEnvelope(WebhookWithSecretDto)
  @ApiErrors(400, 401, 403)
  create(@Body() dto: CreateWebhookDto): Promise<WebhookWithSecretDto> {
    return this.webhooks.create(dto);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One subscription' })
  @ApiOkEnvelope(WebhookDto)
  @ApiErrors(400, 401, 403, 404)
  get(@Param('id', new IdParamPipe()) id: number): Promise<WebhookDto> {
    return this.webhooks.get(id);
  }

  @Put(':id')
  @ApiOperation({
    summary: 'Change url, events, active or description (active: true again clears a disabling)',
    description: SIGNED,
  })
  @ApiOkEnvelope(WebhookDto)
  @ApiErrors(400, 401, 403, 404)
  update(@Param('id', new IdParamPipe()) id: number, @Body() dto: UpdateWebhookDto): Promise<WebhookDto> {
    return this.webhooks.update(id, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Unsubscribe (its delivery history goes with it)' })
  @ApiOkEnvelope(DeletedDto)
  @ApiErrors(400, 401, 403, 404)
  remove(@Param('id', new IdParamPipe()) id: number): Promise<{ id: number }> {
    return this.webhooks.remove(id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({ summary: 'A new signing secret, shown this once; the old one stops at once' })
  @ApiOkEnvelope(WebhookWithSecretDto)
  @ApiErrors(400, 401, 403, 404)
  rotate(@Param('id', new IdParamPipe()) id: number): Promise<WebhookWithSecretDto> {
    return this.webhooks.rotateSecret(id);
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: 'Delivery attempts, newest first: status code, duration, error' })
  @ApiListQuery(DELIVERY_LIST_SPEC)
  @ApiListEnvelope(WebhookDeliveryDto)
  @ApiErrors(400, 401, 403, 404)
  deliveries(@Param('id', new IdParamPipe()) id: number, @Query() query: ListQueryDto): Promise<Page<WebhookDeliveryDto>> {
    return this.webhooks.deliveries(id, query);
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sends a signed webhook.ping now and answers with the attempt' })
  @ApiOkEnvelope(WebhookDeliveryDto)
  @ApiErrors(400, 401, 403, 404)
  test(@Param('id', new IdParamPipe()) id: number): Promise<WebhookDeliveryDto> {
    return this.webhooks.test(id);
  }
}

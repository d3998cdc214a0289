import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { Authenticated, CurrentUser } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { ApiArrayEnvelope, ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { RawResponse } from '../common/envelope/raw-response.decorator';
import { ApiListQuery } from '../common/paging/api-list-query.decorator';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import {
  NotificationDto,
  NotificationPreferenceDto,
  NotificationSettingsDto,
  ReadAllDto,
  UnreadCountDto,
  UpdateNotificationPreferencesDto,
  UpdateNotificationSettingsDto,
} from './dto/notification.dto';
import { NOTIFICATION_LIST_SPEC } from './notifications.repository';
import { NotificationsService } from './notifications.service';
import { PreferencesService } from './preferences.service';

/** The caller's own notifications (docs/api/decisions.md §16). */
@ApiTags('Notifications')
@ApiBearerAuth()
@Controller()
@Authenticated()
export class NotificationsController {
  constructor(
    private readonly notifications: NotificationsService,
    private readonly preferences: PreferencesService,
  ) {}

  @Get('notifications')
  @ApiOperation({ summary: "The caller's notifications, newest first" })
  @ApiListQuery(NOTIFICATION_LIST_SPEC)
  @ApiListEnvelope(NotificationDto)
  @ApiErrors(400, 401)
  list(@CurrentUser() caller: AuthUser, @Query() query: ListQueryDto): Promise<Page<NotificationDto>> {
    return this.notifications.feed(caller, query);
  }

  @Get('notifications/unread-count')
  @ApiOperation({ summary: "How many of the caller's notifications are unread" })
  @ApiOkEnvelope(UnreadCountDto)
  @ApiErrors(400, 401)
  unread(@CurrentUser() caller: AuthUser): Promise<UnreadCountDto> {
    return this.notifications.unreadCount(caller);
  }

  @Get('notifications/stream')
  @RawResponse()
  @ApiOperation({
    summary: "A Server-Sent Events stream of the caller's new notifications",
    description:
      'text/event-stream: `event: notification` (id = the notification id, data = the notification) followed by ' +
      '`event: unread` (data = {count}); a comment line as heartbeat. Send Last-Event-ID to resume after a notification ' +
      '(up to 100 are sent again, oldest first, none twice). Fanned out across API processes through Redis. 429 past ' +
      'NOTIFICATION_STREAMS_PER_USER open streams.',
  })
  @ApiResponse({ status: 200, description: 'The stream', content: { 'text/event-stream': { schema: { type: 'string' } } } })
  @ApiErrors(401, 429)
  async stream(
    @CurrentUser() caller: AuthUser,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Readable> {
    const lastEventId = req.headers['last-event-id'];
    const closed = new Promise<void>((resolve) => req.raw.once('close', () => resolve()));
    const body = await this.notifications.stream(caller, typeof lastEventId === 'string' ? lastEventId : undefined, closed);
    void reply.headers({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
    });
    return body;
  }

  @Post('notifications/read-all')
  @HttpCode(200)
  @ApiOperation({ summary: "Marks every one of the caller's notifications read" })
  @ApiOkEnvelope(ReadAllDto)
  @ApiErrors(400, 401)
  readAll(@CurrentUser() caller: AuthUser): Promise<ReadAllDto> {
    return this.notifications.readAll(caller);
  }

  @Post('notifications/:id/read')
  @HttpCode(200)
  @ApiOperation({ summary: "Marks one of the caller's notifications read (another user's: 404)" })
  @ApiOkEnvelope(NotificationDto)
  @ApiErrors(400, 401, 404)
  read(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<NotificationDto> {
    return this.notifications.read(caller, id);
  }

  @Get('users/me/notification-preferences')
  @ApiOperation({ summary: "The caller's choices per notification kind and channel (the defaults where it chose nothing)" })
  @ApiArrayEnvelope(NotificationPreferenceDto)
  @ApiErrors(400, 401)
  preferencesOf(@CurrentUser() caller: AuthUser): Promise<NotificationPreferenceDto[]> {
    return this.preferences.of(caller.id);
  }

  @Put('users/me/notification-preferences')
  @ApiOperation({ summary: 'Changes the kinds given; a mandatory kind cannot be switched off in the feed (400)' })
  @ApiArrayEnvelope(NotificationPreferenceDto)
  @ApiErrors(400, 401)
  setPreferences(
    @CurrentUser() caller: AuthUser,
    @Body() dto: UpdateNotificationPreferencesDto,
  ): Promise<NotificationPreferenceDto[]> {
    return this.preferences.update(caller.id, dto.items);
  }

  @Get('users/me/notification-settings')
  @ApiOperation({ summary: "When the caller's daily digest goes out: its hour and time zone (null: the company's)" })
  @ApiOkEnvelope(NotificationSettingsDto)
  @ApiErrors(400, 401)
  settingsOf(@CurrentUser() caller: AuthUser): Promise<NotificationSettingsDto> {
    return this.preferences.settingsOf(caller.id);
  }

  @Put('users/me/notification-settings')
  @ApiOperation({
    summary: "Sets the caller's digest hour (0-23) and time zone (an IANA name); null goes back to the company's",
  })
  @ApiOkEnvelope(NotificationSettingsDto)
  @ApiErrors(400, 401)
  setSettings(@CurrentUser() caller: AuthUser, @Body() dto: UpdateNotificationSettingsDto): Promise<NotificationSettingsDto> {
    return this.preferences.updateSettings(caller.id, dto);
  }
}

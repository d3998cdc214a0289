import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/access.decorators';
import { AuthUser } from '../../common/auth/auth-user';
import { ApiCursorEnvelope, ApiErrors } from '../../common/envelope/api-envelope.decorators';
import { ValidationException } from '../../common/errors/domain.exception';
import { CursorPage } from '../../common/paging/cursor-page';
import { EmployeeAccessService } from '../../employees/employee-access.service';
import { WEBHOOK_EVENTS } from '../webhook-events';
import { EventsFeedRepository } from './events-feed.repository';
import { EventsQueryDto, FeedEventDto } from './events-feed.dto';

const KNOWN = new Set<string>(WEBHOOK_EVENTS);

/** GET /events (issue 43, docs/api/decisions.md §19): a pull feed of the webhook events, for integrations that poll. */
@ApiTags('Webhooks')
@ApiBearerAuth()
@Controller('events')
export class EventsFeedController {
  constructor(
    private readonly feed: EventsFeedRepository,
    private readonly access: EmployeeAccessService,
  ) {}

  @Get()
  @Authenticated()
  @ApiOperation({
    summary: 'The events webhooks carry, as a feed read by cursor',
    description:
      'In the order they were committed, deletes included, with the payloads webhooks carry. Admin: every event; anyone ' +
      'else: the events about an employee whose records it sees (a Manager: itself and its reports; an Employee: itself). ' +
      'Pass next_after as after for the next page; an empty page keeps the cursor (poll again later). Events are kept 7 ' +
      'days (the daily purge): a client away longer re-reads the records (updated_since) and goes on from the feed.',
  })
  @ApiCursorEnvelope(FeedEventDto)
  @ApiErrors(400, 401)
  async events(@CurrentUser() caller: AuthUser, @Query() query: EventsQueryDto): Promise<CursorPage<FeedEventDto>> {
    const types = query.types ? [...new Set(query.types.split(',').map((t) => t.trim()))] : [...WEBHOOK_EVENTS];
    const unknown = types.filter((t) => !KNOWN.has(t));
    if (unknown.length) throw ValidationException.field('types', `unknown event types: ${unknown.join(', ')}`);
    const after = query.after ?? 0;
    const rows = await this.feed.page(await this.access.scopeOf(caller), after, types, query.limit ?? 100);
    return new CursorPage(
      rows.map((r) => ({
        id: r.seq,
        type: r.event,
        occurred_at: r.createdAt.toISOString(),
        data: JSON.parse(r.payload) as Record<string, unknown>,
      })),
      rows.length ? rows[rows.length - 1].seq : after,
    );
  }
}

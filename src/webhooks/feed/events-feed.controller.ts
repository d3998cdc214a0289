import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../../common/auth/access.decorators';
import { AuthUser } from '../../common/auth/auth-user';
import { ApiCursorEnvelope, ApiErrors } from '../../common/envelope/api-envelope.decorators';
import { ValidationException } from '../../common/errors/domain.exception';
import { CursorPage } from '../../common/paging/cursor-page';
import { EmployeeAccessService } from '../../employees/core/employee-access.service';
import { EmploymentHistoryService } from '../../employees/history/employment-history.service';
import { FeedReadRules } from '../../common/outbox/feed-read-rules';
import { WEBHOOK_EVENTS } from '../webhook-events';
import { EventsFeedRepository } from './events-feed.repository';
import { EventsQueryDto, FeedEventDto } from './events-feed.dto';

/** Reads of the feed's table for one page, when events the caller may not read are left out. */
const READS_PER_PAGE = 10;

/** GET /events (issue 43, docs/api/decisions.md §19): a pull feed of the webhook events, for integrations that poll. */
@ApiTags('Webhooks')
@ApiBearerAuth()
@Controller('events')
export class EventsFeedController {
  constructor(
    private readonly feed: EventsFeedRepository,
    private readonly access: EmployeeAccessService,
    private readonly rules: FeedReadRules,
    private readonly history: EmploymentHistoryService,
  ) {}

  @Get()
  @Authenticated()
  @ApiOperation({
    summary: 'The events webhooks carry, as a feed read by cursor',
    description:
      'In the order they were committed, deletes included, with the payloads webhooks carry. Admin: every event; anyone ' +
      'else: the events about an employee whose records it sees (a Manager: itself and its reports; an Employee: itself), ' +
      'and of those only what the REST API lets it read (a document of a type hidden from it, a user: not shown). ' +
      'Pass next_after as after for the next page; an empty page whose next_after equals after is the end for now (poll ' +
      'again later; one whose next_after moved skipped events the caller may not read: read on). Events are kept 7 ' +
      'days (the daily purge): a client away longer re-reads the records (updated_since) and goes on from the feed.',
  })
  @ApiCursorEnvelope(FeedEventDto)
  @ApiErrors(400, 401)
  async events(@CurrentUser() caller: AuthUser, @Query() query: EventsQueryDto): Promise<CursorPage<FeedEventDto>> {
    const types = query.types ? [...new Set(query.types.split(',').map((t) => t.trim()))] : [...WEBHOOK_EVENTS];
    const unknown = types.filter((t) => !WEBHOOK_EVENTS.includes(t));
    if (unknown.length) throw ValidationException.field('types', `unknown event types: ${unknown.join(', ')}`);
    const after = query.after ?? 0;
    const limit = query.limit ?? 100;
    const scope = await this.access.scopeOf(caller);
    // What the caller's employee scope lets through (SQL), then what the events' modules let it
    // read; pages are read on until this one is full or the feed ends, at most READS_PER_PAGE of them.
    const shown: FeedEventDto[] = [];
    let cursor = after;
    for (let reads = 0; reads < READS_PER_PAGE && shown.length < limit; reads++) {
      const want = limit - shown.length;
      const rows = await this.feed.page(scope, cursor, types, want);
      if (!rows.length) break;
      const items = rows.map((r) => ({
        id: r.seq,
        type: r.event,
        occurred_at: r.createdAt.toISOString(),
        data: JSON.parse(r.payload) as Record<string, unknown>,
      }));
      const readable = await this.rules.readable(
        caller,
        items.map((i) => ({ event: i.type, data: i.data })),
      );
      // A Restricted Admin reads an employee's events of the days it was in its departments only
      // (a transferee's past in another department stays hidden, as its history does).
      const about = rows.flatMap((r, i) => (r.employeeId === null ? [] : [{ i, employee: r.employeeId, at: r.createdAt }]));
      const inScope = await this.history.daysInScope(scope, about);
      about.forEach((a, k) => (readable[a.i] &&= inScope[k]));
      shown.push(...items.filter((_, i) => readable[i]));
      cursor = rows[rows.length - 1].seq;
      if (rows.length < want) break; // the feed's end
    }
    // The cursor moves past what was read, shown or not.
    return new CursorPage(shown, cursor);
  }
}

import { Controller, Get, HttpCode, Injectable, Module, OnModuleInit, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { BodyTypes } from '../src/common/http/route-config';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiOkEnvelope } from '../src/common/envelope/api-envelope.decorators';
import { buildOpenApiDocument } from '../src/app.factory';
import { Public } from '../src/common/auth/access.decorators';
import { notificationKinds } from '../src/common/outbox/notification-kinds';
import { Reactions, Reminders } from '../src/common/outbox/reactions';
import { taskSources } from '../src/common/outbox/task-sources';
import { TasksService } from '../src/tasks/tasks.service';
import { describeIf, NOT_DATABASE } from './helpers/skip';
import { createTestApp, INTEGRATION } from './helpers/test-app';

/**
 * What a module brings is declared in its own folder (issue 64 item 1). Notification kinds: a
 * reaction that notifies of, or a reminder that sends, a kind nobody declared stops the start,
 * instead of its notifications being dropped in silence. Task sources: a task of a source nobody
 * declared is refused.
 */
@Injectable()
class UndeclaredReaction implements OnModuleInit {
  constructor(private readonly reactions: Reactions) {}
  onModuleInit(): void {
    this.reactions.on('fixture.undeclared' as never, { notify: async () => null });
  }
}
@Module({ providers: [UndeclaredReaction] })
class UndeclaredReactionModule {}

@Injectable()
class UndeclaredReminder implements OnModuleInit {
  constructor(private readonly reminders: Reminders) {}
  onModuleInit(): void {
    this.reminders.declare('fixture', ['reminder.fixture'], async () => []);
  }
}
@Module({ providers: [UndeclaredReminder] })
class UndeclaredReminderModule {}

@ApiTags('Undeclared fixture')
@Controller('fixture-tagged')
class UndeclaredTagController {
  @Public()
  @Get()
  get(): string {
    return 'x';
  }
}
@Module({ controllers: [UndeclaredTagController] })
class UndeclaredTagModule {}

class StreamSeenDto {
  @ApiProperty() stream: boolean;
}

/** An upload route of a module's own: it declares its body type beside the handler, nothing else. */
@ApiTags('Echo')
@Controller('fixture-upload')
class UploadController {
  @Public()
  @Post('form')
  @BodyTypes(['multipart/form-data'])
  @HttpCode(200)
  @ApiOkEnvelope(StreamSeenDto)
  form(@Req() req: FastifyRequest): { stream: boolean } {
    return { stream: req.body instanceof Readable };
  }

  @Public()
  @Post('json')
  @HttpCode(200)
  @ApiOkEnvelope(StreamSeenDto)
  @ApiErrors(415)
  json(@Req() req: FastifyRequest): { stream: boolean } {
    return { stream: req.body instanceof Readable };
  }
}
@Module({ controllers: [UploadController] })
class UploadModule {}

describeIf(!INTEGRATION, NOT_DATABASE)('declarations: what a module brings, beside it', () => {
  it('every kind the modules send is declared, with a description and defaults', async () => {
    const t = await createTestApp();
    try {
      const kinds = notificationKinds();
      expect(kinds.map((k) => k.kind)).toEqual(
        expect.arrayContaining(['leave.requested', 'payslip.sent', 'reminder.birthday', 'reminder.timesheet', 'task.assigned']),
      );
      expect(kinds.filter((k) => k.mandatory).map((k) => k.kind)).toEqual(['employee.bank_account_changed', 'payslip.sent']);
    } finally {
      await t.close();
    }
  });

  it('a reaction notifying of an undeclared kind stops the start, naming it', async () => {
    await expect(createTestApp({}, { imports: [UndeclaredReactionModule] })).rejects.toThrow(
      /notification kind fixture\.undeclared: sent by a reaction but declared by no module/,
    );
  });

  it('a reminder source sending an undeclared kind stops the start, naming it', async () => {
    await expect(createTestApp({}, { imports: [UndeclaredReminderModule] })).rejects.toThrow(
      /notification kind reminder\.fixture: sent by the reminders of fixture but declared by no module/,
    );
  });

  it('task sources are those the modules declare; a task of any other source is refused', async () => {
    const t = await createTestApp();
    try {
      expect(taskSources()).toEqual([
        'checklist-item',
        'document-expiry',
        'expense-approval',
        'leave-approval',
        'password-change',
        'payroll-failed',
        'payroll-review',
        'payslip-delivery',
        'timesheet-approval',
        'webhook-disabled',
      ]);
      const tasks = t.app.get(TasksService);
      await expect(tasks.assign('fixture-undeclared', 1, [1], { title: 'x' })).rejects.toThrow(
        'task source fixture-undeclared is declared by no module',
      );
      await expect(tasks.completeAll('fixture-undeclared', [1])).rejects.toThrow('is declared by no module');
    } finally {
      await t.close();
    }
  });

  it('an operation tagged with a tag no module declared fails the document', async () => {
    const t = await createTestApp({}, { imports: [UndeclaredTagModule] });
    try {
      expect(() => buildOpenApiDocument(t.app, t.config)).toThrow(
        'operations tagged Undeclared fixture: declare each tag in its module',
      );
    } finally {
      await t.close();
    }
  });

  it('a route declares the body types it takes beside its handler: a multipart form reaches it as a stream, and no other route', async () => {
    const t = await createTestApp({}, { imports: [UploadModule] });
    try {
      const send = (path: string) =>
        t.app.inject({
          method: 'POST',
          url: `/app/api/fixture-upload/${path}`,
          headers: { 'content-type': 'multipart/form-data; boundary=x' },
          payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
        });
      const form = await send('form');
      expect([form.statusCode, form.json()]).toEqual([200, { status: 'SUCCESS', data: { stream: true } }]);
      const json = await send('json');
      expect([json.statusCode, json.json().error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    } finally {
      await t.close();
    }
  });
});

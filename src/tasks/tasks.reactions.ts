import { Injectable, OnModuleInit } from '@nestjs/common';
import { declareNotificationKinds } from '../common/outbox/notification-kinds';
import { Reactions } from '../common/outbox/reactions';
import './tasks.events';

declareNotificationKinds({
  'task.assigned': { description: 'an administrator gave you a task', email: true, inApp: true },
});

/** What task.assigned does (issue 42): the assignee hears of a task an Admin gave it. */
@Injectable()
export class TasksReactions implements OnModuleInit {
  constructor(private readonly reactions: Reactions) {}

  onModuleInit(): void {
    this.reactions.on('task.assigned', {
      notify: async (p) => ({
        to: [{ users: [p.user] }],
        title: `New task: ${p.title}`,
        body: `${p.title}${p.due_date ? ` (due ${p.due_date})` : ''}, priority ${p.priority}.`,
        link: '/tasks',
      }),
    });
  }
}

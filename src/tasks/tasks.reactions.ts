import { Injectable, OnModuleInit } from '@nestjs/common';
import { Reactions } from '../common/outbox/reactions';
import './tasks.events';

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

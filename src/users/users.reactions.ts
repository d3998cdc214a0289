import { Injectable, OnModuleInit } from '@nestjs/common';
import { declareTaskSources } from '../common/outbox/task-sources';
import { Reactions } from '../common/outbox/reactions';
import { FeedReadRules } from '../common/outbox/feed-read-rules';
import './users.events';

declareTaskSources('password-change');

/** What the users' events do (issue 42): the "change your temporary password" task; who reads them in the feed. */
@Injectable()
export class UsersReactions implements OnModuleInit {
  constructor(
    private readonly reactions: Reactions,
    private readonly feedRules: FeedReadRules,
  ) {}

  onModuleInit(): void {
    // Users are the Admins' (GET /users/{id}): the change feed shows their events to Admins only.
    this.feedRules.register('user.', async (caller, items) => items.map(() => caller.level === 'Admin'));
    this.reactions.on('user.must_change_password', {
      tasks: async (p) => ({
        open: [
          {
            source: 'password-change',
            sourceId: p.user,
            to: [{ users: [p.user] }],
            title: 'Change your temporary password',
            description: 'Your account was created with a temporary password: choose your own (POST /users/me/password).',
            priority: 'High',
            link: '/users/me/password',
          },
        ],
      }),
    });
    this.reactions.on('user.password_changed', {
      tasks: async (p) => ({ complete: [{ source: 'password-change', sourceIds: [p.user] }] }),
    });
  }
}

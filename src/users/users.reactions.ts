import { Injectable, OnModuleInit } from '@nestjs/common';
import { Reactions } from '../common/outbox/reactions';
import './users.events';

/** What the users' events do (issue 42): the "change your temporary password" task. */
@Injectable()
export class UsersReactions implements OnModuleInit {
  constructor(private readonly reactions: Reactions) {}

  onModuleInit(): void {
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

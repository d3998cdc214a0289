import './notifications.config';
import { NotificationsPersonalData } from './notifications.personal-data';
import { Module } from '@nestjs/common';
import { declareApiTag } from '../common/openapi/api-tags';
import { declareExtension } from '../common/meta/extensions';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SettingsModule } from '../settings/settings.module';
import { UsersModule } from '../users/users.module';
import {
  Notification,
  NotificationEmail,
  NotificationPreference,
  NotificationTemplate,
  NotificationUserSettings,
} from './entities/notification.entities';
import { NotificationEmailsRepository } from './notification-emails.repository';
import { NotificationMailer } from './notification-mailer.service';
import { NotificationTemplatesController } from './notification-templates.controller';
import { NotificationTemplatesService } from './notification-templates.service';
import { NotificationWriter } from './notification-writer.service';
import { NotificationDispatcher } from './notification-dispatcher.service';
import { NotificationsHub } from './notifications-hub.service';
import { NotificationsController } from './notifications.controller';
import { NotificationsRepository } from './notifications.repository';
import { NotificationsService } from './notifications.service';
import { PreferencesService } from './preferences.service';
import { RemindersService } from './reminders.service';

declareApiTag(
  'Notifications',
  "The caller's notifications: the feed, its Server-Sent Events stream, read marks and preferences",
  260,
);

declareExtension({ code: 'notifications', label: 'Notifications', features: ['feed', 'e-mail', 'digests', 'reminders'] });

/**
 * Notifications (issue 30, docs/api/decisions.md §16): the in-app feed made from the outbox's events, its stream,
 * preferences. A subscriber of the outbox relay that knows no producing module (issue 42): what
 * each event and reminder says, and to whom, is its module's `<module>.reactions.ts` and
 * `<module>.reminders.ts`.
 */
@Module({
  imports: [
    SettingsModule,
    UsersModule,
    TypeOrmModule.forFeature([
      Notification,
      NotificationPreference,
      NotificationEmail,
      NotificationUserSettings,
      NotificationTemplate,
    ]),
  ],
  controllers: [NotificationsController, NotificationTemplatesController],
  providers: [
    NotificationsPersonalData,
    NotificationsRepository,
    NotificationsService,
    PreferencesService,
    NotificationsHub,
    NotificationDispatcher,
    NotificationEmailsRepository,
    NotificationTemplatesService,
    NotificationMailer,
    NotificationWriter,
    RemindersService,
  ],
  exports: [NotificationsService],
})
export class NotificationsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DocumentsModule } from '../documents/documents.module';
import { EmployeesModule } from '../employees/employees.module';
import { PayrollModule } from '../payroll/payroll.module';
import { ReferenceModule } from '../reference/reference.module';
import { UsersModule } from '../users/users.module';
import { Notification, NotificationPreference } from './entities/notification.entities';
import { NotificationDispatcher } from './notification-dispatcher.service';
import { NotificationsHub } from './notifications-hub.service';
import { NotificationsController } from './notifications.controller';
import { NotificationsRepository } from './notifications.repository';
import { NotificationsService } from './notifications.service';
import { PreferencesService } from './preferences.service';

/** Notifications (issue 30, API.md §16): the in-app feed made from the outbox's events, its stream, preferences. */
@Module({
  imports: [
    DocumentsModule,
    EmployeesModule,
    PayrollModule,
    ReferenceModule,
    UsersModule,
    TypeOrmModule.forFeature([Notification, NotificationPreference]),
  ],
  controllers: [NotificationsController],
  providers: [NotificationsRepository, NotificationsService, PreferencesService, NotificationsHub, NotificationDispatcher],
  exports: [NotificationsService],
})
export class NotificationsModule {}

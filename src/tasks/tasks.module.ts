import { declareMobileModule } from '../settings/settings.registry';
import { TasksPersonalData } from './tasks.personal-data';
import { Module } from '@nestjs/common';
import { declareApiTag } from '../common/openapi/api-tags';
import { declareExtension } from '../common/meta/extensions';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../users/users.module';
import { Task } from './entities/task.entity';
import { TasksController } from './tasks.controller';
import { TasksReactions } from './tasks.reactions';
import { TasksSubscriber } from './tasks.subscriber';
import { TasksService } from './tasks.service';

declareApiTag('Tasks', "The caller's task list", 210);

declareMobileModule({ key: 'tasks', label: 'Tasks' });

declareExtension({ code: 'tasks', label: 'Tasks', features: ['task-list'] });

@Module({
  imports: [TypeOrmModule.forFeature([Task]), UsersModule],
  controllers: [TasksController],
  providers: [TasksService, TasksSubscriber, TasksReactions, TasksPersonalData],
  exports: [TasksService],
})
export class TasksModule {}

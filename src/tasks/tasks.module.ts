import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EmployeesModule } from '../employees/employees.module';
import { UsersModule } from '../users/users.module';
import { Task } from './entities/task.entity';
import { TasksController } from './tasks.controller';
import { TasksListener } from './tasks.listener';
import { TasksService } from './tasks.service';

@Module({
  imports: [TypeOrmModule.forFeature([Task]), EmployeesModule, UsersModule],
  controllers: [TasksController],
  providers: [TasksService, TasksListener],
  exports: [TasksService],
})
export class TasksModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { SettingsModule } from '../settings/settings.module';
import { User } from './entities/user.entity';
import { UserDepartment } from './entities/user-department.entity';
import { UsersController } from './users.controller';
import { UserAccountsService } from './user-accounts.service';
import { UsersService } from './users.service';
import { WelcomeMailService } from './welcome-mail.service';

@Module({
  imports: [AuthModule, SettingsModule, TypeOrmModule.forFeature([User, UserDepartment])],
  controllers: [UsersController],
  providers: [UsersService, UserAccountsService, WelcomeMailService],
  exports: [UsersService, UserAccountsService],
})
export class UsersModule {}

import { UsersPersonalData } from './users.personal-data';
import { Module } from '@nestjs/common';
import { declareApiTag } from '../common/openapi/api-tags';
import { declareExtension } from '../common/meta/extensions';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { EmployeesModule } from '../employees/employees.module';
import { ReferenceModule } from '../reference/reference.module';
import { SettingsModule } from '../settings/settings.module';
import { EmployeeUserController } from './employee-user.controller';
import { User } from './entities/user.entity';
import { UserDepartment } from './entities/user-department.entity';
import { UsersController } from './users.controller';
import { UserAccountsService } from './user-accounts.service';
import { Recipients } from './recipients.service';
import { UsersReactions } from './users.reactions';
import { UsersService } from './users.service';
import { UserProvisioningService } from './user-provisioning.service';
import { WelcomeMailKind } from './welcome-mail.kind';
import { WelcomeMailService } from './welcome-mail.service';

declareApiTag('Users', 'Login users, their levels and departments; creating a user for an employee; second factors', 80);

declareExtension({ code: 'users', label: 'Users', features: ['user-accounts', 'user-levels', 'welcome-emails'] });

@Module({
  imports: [AuthModule, EmployeesModule, ReferenceModule, SettingsModule, TypeOrmModule.forFeature([User, UserDepartment])],
  controllers: [UsersController, EmployeeUserController],
  providers: [
    UsersPersonalData,
    UsersService,
    UserAccountsService,
    UserProvisioningService,
    WelcomeMailService,
    WelcomeMailKind,
    Recipients,
    UsersReactions,
  ],
  exports: [UsersService, UserAccountsService, UserProvisioningService, Recipients],
})
export class UsersModule {}

import { Module } from '@nestjs/common';
import { declareApiTag } from '../common/openapi/api-tags';
import { declareExtension } from '../common/meta/extensions';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SettingsModule } from '../settings/settings.module';
import { UsersModule } from '../users/users.module';
import { ScimGroup, ScimGroupMember, ScimToken } from './entities/scim.entities';
import { ScimGroupsService } from './scim-groups.service';
import { ScimTokenGuard } from './scim-token.guard';
import { ScimTokensController } from './scim-tokens.controller';
import { ScimTokensService } from './scim-tokens.service';
import { ScimUsersService } from './scim-users.service';
import { ScimController } from './scim.controller';

declareApiTag(
  'SCIM',
  'SCIM 2.0 provisioning (RFC 7643/7644) for Entra ID and Okta at /scim/v2, with a SCIM token (scheme "scim"); the Admin routes that issue those tokens',
  90,
);

declareExtension({ code: 'scim', label: 'SCIM provisioning', features: ['users', 'groups'] });

@Module({
  imports: [UsersModule, SettingsModule, TypeOrmModule.forFeature([ScimToken, ScimGroup, ScimGroupMember])],
  controllers: [ScimController, ScimTokensController],
  providers: [ScimTokensService, ScimTokenGuard, ScimUsersService, ScimGroupsService],
  exports: [ScimTokensService],
})
export class ScimModule {}

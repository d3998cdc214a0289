import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { User } from '../users/entities/user.entity';
import { UserDepartment } from '../users/entities/user-department.entity';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { BearerStrategy } from './bearer.strategy';
import { OAuthToken } from './entities/oauth-token.entity';
import { PasswordHasher } from './password-hasher';
import { RateLimitsService } from './rate-limits.service';
import { TokenService } from './token.service';

@Module({
  imports: [PassportModule, TypeOrmModule.forFeature([OAuthToken, User, UserDepartment])],
  controllers: [AuthController],
  providers: [
    AuthService,
    TokenService,
    BearerStrategy,
    RateLimitsService,
    { provide: PasswordHasher, useFactory: () => new PasswordHasher() },
  ],
  exports: [TokenService, PasswordHasher, BearerStrategy, RateLimitsService],
})
export class AuthModule {}

import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { BearerAuthenticator } from './bearer.authenticator';
import { BearerStrategy } from './bearer.strategy';
import { AUTHENTICATOR } from '../common/auth/authenticator';
import { OAuthToken } from './entities/oauth-token.entity';
import { PasswordHasher } from './password-hasher';
import { RateLimitsService } from './rate-limits.service';
import { TokenService } from './token.service';

@Module({
  imports: [PassportModule, TypeOrmModule.forFeature([OAuthToken])],
  controllers: [AuthController],
  providers: [
    AuthService,
    TokenService,
    BearerStrategy,
    RateLimitsService,
    { provide: AUTHENTICATOR, useClass: BearerAuthenticator },
    { provide: PasswordHasher, useFactory: () => new PasswordHasher() },
  ],
  exports: [TokenService, PasswordHasher, RateLimitsService, AUTHENTICATOR],
})
export class AuthModule {}

import { Module } from '@nestjs/common';
import { declareApiTag } from '../common/openapi/api-tags';
import { declareExtension } from '../common/meta/extensions';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthController } from './sign-in/auth.controller';
import { AuthService } from './sign-in/auth.service';
import { BearerAuthenticator } from './bearer.authenticator';
import { BearerStrategy } from './bearer.strategy';
import { AUTHENTICATOR } from '../common/auth/authenticator';
import { OAuthToken } from './entities/oauth-token.entity';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { DEFAULT_SCRYPT, PasswordHasher } from './password-hasher';
import { DEFAULT_HASH_GATE, HashGate } from './hash-gate';
import { RateLimitsService } from './rate-limits.service';
import { TokenService } from './token.service';
import { TokenInvalidations } from './token-invalidations';
import { UserMfa, UserRecoveryCode } from './entities/user-mfa.entity';
import { MfaController } from './mfa/mfa.controller';
import { MfaService } from './mfa/mfa.service';
import { OidcLogin } from './entities/oidc-login.entity';
import { OidcController } from './oidc/oidc.controller';
import { OidcService } from './oidc/oidc.service';
import { SettingsModule } from '../settings/settings.module';

declareApiTag('Authentication', 'Tokens (OAuth 2.0 password and refresh_token grants), revocation, password change', 10);

declareExtension({ code: 'identity', label: 'Identity', features: ['two-factor', 'single-sign-on'] });

@Module({
  imports: [PassportModule, SettingsModule, TypeOrmModule.forFeature([OAuthToken, UserMfa, UserRecoveryCode, OidcLogin])],
  controllers: [AuthController, MfaController, OidcController],
  providers: [
    AuthService,
    TokenService,
    TokenInvalidations,
    MfaService,
    OidcService,
    BearerStrategy,
    RateLimitsService,
    { provide: AUTHENTICATOR, useClass: BearerAuthenticator },
    {
      provide: PasswordHasher,
      useFactory: (config: AppConfig) =>
        new PasswordHasher(
          { ...DEFAULT_SCRYPT, logN: config.passwordScryptCost },
          new HashGate({ ...DEFAULT_HASH_GATE, concurrency: config.passwordHashConcurrency, waiting: config.passwordHashQueue }),
        ),
      inject: [APP_CONFIG],
    },
  ],
  exports: [TokenService, PasswordHasher, RateLimitsService, AUTHENTICATOR],
})
export class AuthModule {}

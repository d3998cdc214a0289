import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { AuthModule } from './auth/auth.module';
import { AccessGuard } from './common/auth/access.guard';
import { AccessModule } from './common/auth/access.module';
import { EnvelopeInterceptor } from './common/envelope/envelope.interceptor';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { QueueModule } from './common/queue/queue.module';
import { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { EchoModule } from './echo/echo.module';
import { HealthModule } from './health/health.module';
import { SettingsModule } from './settings/settings.module';
import { UsersModule } from './users/users.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        QueueModule.forRoot(config),
        AccessModule,
        SettingsModule,
        AuthModule,
        UsersModule,
        EchoModule,
        HealthModule,
      ],
      providers: [
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}

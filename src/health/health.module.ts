import { Module } from '@nestjs/common';
import { declareApiTag } from '../common/openapi/api-tags';
import { HealthController } from './health.controller';

declareApiTag('Health', 'Liveness and readiness probes; answer while the API is disabled', 30);

@Module({ controllers: [HealthController] })
export class HealthModule {}

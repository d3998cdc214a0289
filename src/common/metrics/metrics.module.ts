import { Global, Module } from '@nestjs/common';
import { declareApiTag } from '../openapi/api-tags';
import { DatabaseMetrics } from './database-metrics';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';

declareApiTag('Metrics', "This process's metrics for Prometheus, to loopback or with METRICS_TOKEN", 270);

/** This process's Prometheus metrics (docs/api/decisions.md §24): the registry every module adds to, and GET /metrics. */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [{ provide: Metrics, useFactory: () => new Metrics() }, DatabaseMetrics],
  exports: [Metrics, DatabaseMetrics],
})
export class MetricsModule {}

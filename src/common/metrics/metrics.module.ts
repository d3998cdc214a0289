import { Global, Module } from '@nestjs/common';
import { DatabaseMetrics } from './database-metrics';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';

/** This process's Prometheus metrics (docs/api/decisions.md §24): the registry every module adds to, and GET /metrics. */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [{ provide: Metrics, useFactory: () => new Metrics() }, DatabaseMetrics],
  exports: [Metrics, DatabaseMetrics],
})
export class MetricsModule {}

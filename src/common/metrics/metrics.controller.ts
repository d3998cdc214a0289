import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { Public } from '../auth/access.decorators';
import { ApiErrors } from '../envelope/api-envelope.decorators';
import { RawResponse } from '../envelope/raw-response.decorator';
import { DomainException } from '../errors/domain.exception';
import { metricsRefusal } from './metrics-access';
import { Metrics } from './metrics';

/** GET {base_url}/metrics: this process's metrics for Prometheus; answers while the REST API setting is off. */
@ApiTags('Metrics')
@Controller('metrics')
export class MetricsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  @Get()
  @Public()
  @RawResponse()
  @ApiSecurity('metrics')
  @ApiSecurity({})
  @ApiOperation({
    summary: "This process's metrics, in the Prometheus text format",
    description:
      'Served to a scraper on loopback (no proxy in between), or to one sending METRICS_TOKEN as a bearer token; ' +
      'no user token. Each API process and each worker has its own (the worker on WORKER_METRICS_PORT). ' +
      'The metrics and the alerts worth having: docs/operations.md, Metrics.',
  })
  @ApiResponse({
    status: 200,
    description: 'The metrics',
    content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: { type: 'string' } } },
  })
  @ApiErrors(401)
  async scrape(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const refusal = metricsRefusal(req.socket.remoteAddress, req.headers, this.config.metrics.token);
    if (refusal) throw new DomainException('UNAUTHORIZED', refusal);
    void reply.header('Content-Type', this.metrics.contentType).header('Cache-Control', 'no-store');
    return this.metrics.text();
  }
}

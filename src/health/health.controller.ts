import { Controller, Get } from '@nestjs/common';
import { ResponseOptional } from '../common/openapi/response-optional';
import { ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Public } from '../common/auth/access.decorators';
import { DomainException, ErrorDetail } from '../common/errors/domain.exception';
import { ApiErrors, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { JobQueue } from '../common/queue/job-queue.service';
import { withTimeout } from '../common/async/with-timeout';
import { allProcessesListening } from './cluster-readiness';

export class HealthDto {
  @ApiProperty({ example: 'ok' }) status: string;
  @ResponseOptional()
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { database: 'ok', queue: 'ok' },
  })
  checks?: Record<string, string>;
}

/** Probes for orchestrators: public, and answering while the REST API setting is off. */
@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
  ) {}

  @Get('live')
  @Public()
  @ApiOperation({ summary: 'Liveness: the process serves HTTP' })
  @ApiOkEnvelope(HealthDto)
  live(): HealthDto {
    return { status: 'ok' };
  }

  @Get('ready')
  @Public()
  @ApiOperation({
    summary: 'Readiness: the database answers, and Redis when REDIS_URL is set',
    description:
      'With API_PROCESSES > 1, also every HTTP process of the instance listens (a connection opened earlier would stay on the first).',
  })
  @ApiOkEnvelope(HealthDto)
  @ApiErrors(503)
  async ready(): Promise<HealthDto> {
    const failures: ErrorDetail[] = [];
    const checks: Record<string, string> = {};
    const probe = async (name: string, fn: () => Promise<unknown>) => {
      try {
        await withTimeout(fn(), 2000);
        checks[name] = 'ok';
      } catch {
        failures.push({ field: name, message: 'unreachable' });
      }
    };
    await Promise.all([
      probe('database', () => this.dataSource.query('SELECT 1')),
      this.jobs.kind === 'bull' ? probe('redis', () => this.jobs.ping()) : Promise.resolve(),
    ]);
    if (!allProcessesListening()) failures.push({ field: 'processes', message: 'not every HTTP process listens yet' });
    if (failures.length) throw new DomainException('DEPENDENCY_UNAVAILABLE', 'A dependency is unavailable', failures);
    return { status: 'ok', checks };
  }
}

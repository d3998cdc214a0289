import { ApiInt } from '../../common/openapi/api-int';
import { ApiProperty } from '@nestjs/swagger';
import { DateRangeListQueryDto } from '../../common/paging/list-query.dto';

export class AuditEntryDto {
  @ApiInt() id: number;
  @ApiProperty({ format: 'date-time', description: 'when the change was committed (UTC)' }) at: string;
  @ApiProperty({
    oneOf: [{ type: 'integer' }, { type: 'string', enum: ['cli', 'system', 'scim'] }],
    description: 'the user id; "cli" for the command line; "system" for the service itself (jobs)',
  })
  actor: number | 'cli' | 'system' | 'scim';
  @ApiProperty({
    example: 'update',
    description: 'create, update, delete, or a transition: approve, reject, cancel, submit, process, ...',
  })
  action: string;
  @ApiProperty({ example: 'employees/salary', description: 'the collection as the API addresses it' }) resource: string;
  @ApiProperty({ example: '42', description: 'the record id (a setting: its name)' }) resource_id: string;
  @ApiInt({ type: Number, nullable: true, description: 'the employee the record belongs to' }) employee: number | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: {}, minItems: 2, maxItems: 2 },
    example: { amount: ['2500.00', '2750.00'] },
    description: 'field → [before, after]; secrets (passwords, hashes, tokens) are never recorded',
  })
  changes: Record<string, [unknown, unknown]>;
  @ApiProperty({ type: String, nullable: true, description: 'the X-Request-Id of the request that made the change' })
  request_id: string | null;
}

export class AuditListQueryDto extends DateRangeListQueryDto {}

import { ApiListQuery } from '../common/paging/api-list-query.decorator';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Levels } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { Exportable } from '../common/export/exportable';
import { ApiErrors, ApiListEnvelope } from '../common/envelope/api-envelope.decorators';
import { Page } from '../common/paging/page';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { AuditService, AUDIT_LIST_SPEC } from './audit.service';
import { AuditEntryDto, AuditListQueryDto } from './dto/audit-entry.dto';

const LIST =
  'Newest first. filters: resource, resource_id, employee, actor (a user id or "cli"), action; from/to: UTC days of `at`. ' +
  'Each entry is written in the transaction of the change it records.';

@ApiTags('Audit log')
@ApiBearerAuth()
@Controller()
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get('audit-log')
  @Levels('Admin', 'Restricted Admin')
  @ApiOperation({
    summary: "Every change (Admin); a Restricted Admin: the changes of its departments' employees",
    description: LIST,
  })
  @ApiListEnvelope(AuditEntryDto)
  @Exportable('audit-log', AuditEntryDto)
  @ApiListQuery(AUDIT_LIST_SPEC)
  @ApiErrors(400, 401, 403)
  list(@CurrentUser() caller: AuthUser, @Query() query: AuditListQueryDto): Promise<Page<AuditEntryDto>> {
    return this.audit.list(caller, query);
  }

  @Get('employees/:id/audit-log')
  @Levels('Admin', 'Restricted Admin')
  @ApiOperation({ summary: "The changes of one employee's records (404 outside the caller's scope)", description: LIST })
  @ApiListEnvelope(AuditEntryDto)
  @Exportable('audit-log', AuditEntryDto)
  @ApiListQuery(AUDIT_LIST_SPEC)
  @ApiErrors(400, 401, 403, 404)
  ofEmployee(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: AuditListQueryDto,
  ): Promise<Page<AuditEntryDto>> {
    return this.audit.list(caller, query, id);
  }
}

import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Levels } from '../common/auth/access.decorators';
import { crudController } from '../common/crud/crud.controller';
import { ApiErrors, ApiListEnvelope } from '../common/envelope/api-envelope.decorators';
import { PageQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import {
  RetentionPolicyBodyDto,
  RetentionPolicyDto,
  RetentionPreviewItemDto,
  UpdateRetentionPolicyDto,
} from './dto/retention.dto';
import { RetentionService } from './retention.service';

/** /retention-policies (issue 69, docs/api/privacy.md): the Admin's. */
export const RetentionPoliciesController = crudController<RetentionService>({
  path: 'retention-policies',
  label: 'Retention policy',
  tag: 'Privacy',
  dto: RetentionPolicyDto,
  createDto: RetentionPolicyBodyDto,
  updateDto: UpdateRetentionPolicyDto,
  service: RetentionService,
  crud: (s) => s.policies,
  readers: ['Admin'],
  writers: ['Admin'],
  listSpec: { sortFields: { id: 'r.id', category: 'r.category' }, searchColumns: ['r.category'] },
  note:
    'One policy per category of personal data (409 DUPLICATE naming category): its records are kept keep_years after the ' +
    'employee’s termination date, then anonymised or deleted by the daily job (GET /retention/preview shows what it would do ' +
    'today). Employees under legal hold are skipped; payroll results are in no category and stay.',
});

@ApiTags('Privacy')
@ApiBearerAuth()
@Controller('retention')
export class RetentionPreviewController {
  constructor(private readonly retention: RetentionService) {}

  @Get('preview')
  @Levels('Admin')
  @ApiOperation({
    summary: 'What the daily retention job would do today: per leaver and category, the action and how many records it changes',
    description:
      'Leavers whose termination date is keep_years or more before today (the company’s day), not under legal hold, with ' +
      'something left to change; in employee then category order (sortOrder=descend reverses it).',
  })
  @ApiListEnvelope(RetentionPreviewItemDto)
  @ApiErrors(400, 401, 403)
  preview(@Query() query: PageQueryDto): Promise<Page<RetentionPreviewItemDto>> {
    return this.retention.preview(query);
  }
}

import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Levels } from '../../common/auth/access.decorators';
import { crudController } from '../../common/crud/crud.controller';
import { ApiArrayEnvelope, ApiErrors } from '../../common/envelope/api-envelope.decorators';
import { CreatePayrollTestDto, PayrollTestDto, PayrollTestResultDto, UpdatePayrollTestDto } from '../dto/payroll-config.dto';
import { PayrollTestsService } from './payroll-tests.service';

/** /payroll_config/payroll-tests: Admins read and run them, the Admin writes them (as the columns they guard). */
export const PayrollTestsCrudController = crudController<PayrollTestsService>({
  path: 'payroll_config/payroll-tests',
  label: 'Payroll test',
  tag: 'Payroll configuration',
  dto: PayrollTestDto,
  createDto: CreatePayrollTestDto,
  updateDto: UpdatePayrollTestDto,
  service: PayrollTestsService,
  crud: (s) => s.tests,
  readers: ['Admin', 'Restricted Admin'],
  writers: ['Admin'],
  note:
    'An employee (salary: component id → amount; hooks: hook code → value, 0 when absent; fields: employee field → number) ' +
    'and the amounts its columns must give (expected: column variable → amount), in 2 decimal places. Saving a payroll column ' +
    'runs every test first: 409 PAYROLL_TESTS_FAILED names the failures unless accept_test_changes is true.',
});

@ApiTags('Payroll configuration')
@ApiBearerAuth()
@Controller('payroll_config/payroll-tests')
export class PayrollTestsController {
  constructor(private readonly tests: PayrollTestsService) {}

  @Post('run')
  @HttpCode(200)
  @Levels('Admin', 'Restricted Admin')
  @ApiOperation({
    summary: 'Run every payroll test against the current columns',
    description: 'Answers [{id, name, passed, failures: [{column, expected, actual}]}]; actual is null where the cell fails.',
  })
  @ApiArrayEnvelope(PayrollTestResultDto)
  @ApiErrors(400, 401, 403)
  run(): Promise<PayrollTestResultDto[]> {
    return this.tests.runTests();
  }
}

import { PayrollDataImport, PayrollEmployeesImport, SalariesImport } from './payroll.import';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AttendanceModule } from '../attendance/attendance.module';
import { EmployeesModule } from '../employees/employees.module';
import { LeaveModule } from '../leave/leave.module';
import { TimesheetsModule } from '../timesheets/timesheets.module';
import { ReferenceModule } from '../reference/reference.module';
import { PAYROLL_CONFIG_ENTITIES } from './entities/payroll-config.entities';
import { PAYROLL_RUN_ENTITIES } from './entities/payroll-run.entities';
import { EmployeeSalaryController, PAYROLL_CRUD_CONTROLLERS, PayrollConfigController } from './payroll-config.controller';
import { PayrollConfigService } from './payroll-config.service';
import { PayrollTestsController, PayrollTestsCrudController } from './payroll-tests.controller';
import { PayrollTestsService } from './payroll-tests.service';
import { PayrollEmployeesService } from './payroll-employees.service';
import { PayrollInputsService } from './payroll-inputs.service';
import { PayrollRunsController } from './payroll-runs.controller';
import { PayrollGridService } from './payroll-grid.service';
import { PayrollProcessingService } from './payroll-processing.service';
import { PayrollRunsService } from './payroll-runs.service';
import { PayrollRunsRepository } from './payroll-runs.repository';
import { PayrollRunInputsRepository } from './payroll-run-inputs.repository';
import { PayrollColumnPreviewController, PayrollExplainController } from './payroll-explain.controller';
import { PayrollPreviewService } from './payroll-preview.service';
import { PayrollExplainService } from './payroll-explain.service';
import { PayrollDiffService } from './payroll-diff.service';
import { AuditModule } from '../audit/audit.module';
import { PayrollTransitionsService } from './payroll-transitions.service';
import { PayrollProcessor } from './payroll.processor';
import { EmployeePayslipsController, PayrollPayslipsController, PayslipTemplatesController } from './payslips.controller';
import { PayslipsService } from './payslips.service';
import { PayslipContextsService } from './payslip-contexts.service';
import { PayslipTemplatesService } from './payslip-templates.service';
import { SettingsModule } from '../settings/settings.module';
import { DocumentsModule } from '../documents/documents.module';
import { PdfModule } from '../common/pdf/pdf.module';
import { PayslipPdfsService } from './payslip-pdfs.service';
import { PayslipDeliveriesRepository } from './payslip-deliveries.repository';
import { PayslipDeliveryService } from './payslip-delivery.service';
import { PayslipMailProcessor } from './payslip-mail.processor';

@Module({
  imports: [
    AttendanceModule,
    AuditModule,
    DocumentsModule,
    EmployeesModule,
    PdfModule,
    LeaveModule,
    ReferenceModule,
    SettingsModule,
    TimesheetsModule,
    TypeOrmModule.forFeature([...PAYROLL_CONFIG_ENTITIES, ...PAYROLL_RUN_ENTITIES]),
  ],
  controllers: [
    PayrollConfigController,
    PayrollRunsController,
    PayslipTemplatesController,
    PayrollPayslipsController,
    EmployeePayslipsController,
    EmployeeSalaryController,
    ...PAYROLL_CRUD_CONTROLLERS,
    PayrollTestsCrudController,
    PayrollTestsController,
    PayrollExplainController,
    PayrollColumnPreviewController,
  ],
  providers: [
    SalariesImport,
    PayrollEmployeesImport,
    PayrollDataImport,
    PayrollConfigService,
    PayrollTestsService,
    PayrollEmployeesService,
    PayrollInputsService,
    PayrollRunsService,
    PayrollRunsRepository,
    PayrollRunInputsRepository,
    PayrollExplainService,
    PayrollDiffService,
    PayrollPreviewService,
    PayrollTransitionsService,
    PayrollGridService,
    PayrollProcessingService,
    PayrollProcessor,
    PayslipsService,
    PayslipContextsService,
    PayslipTemplatesService,
    PayslipPdfsService,
    PayslipDeliveriesRepository,
    PayslipDeliveryService,
    PayslipMailProcessor,
  ],
  exports: [PayrollConfigService, PayrollEmployeesService, PayrollInputsService, PayrollRunsService, PayrollTransitionsService],
})
export class PayrollModule {}

import './payroll.config';
import { declareMobileModule } from '../settings/settings.registry';
import { PayrollDataImport, PayrollEmployeesImport, SalariesImport } from './runs/payroll.import';
import { declareApiTag } from '../common/openapi/api-tags';
import { declareExtension } from '../common/meta/extensions';
import { PayrollReactions } from './payslips/payroll.reactions';
import { Module } from '@nestjs/common';
import { CalendarsModule } from '../calendars/calendars.module';
import { BankFileService } from './books/bank-file.service';
import { PayrollAccountsController, PayrollBooksController } from './books/books.controller';
import { PayrollAccount, PayrollBankFile } from './books/books.entities';
import { BooksRepository } from './books/books.repository';
import { BookWindows } from './books/book-windows';
import { BankFileDocuments } from './books/bank-file-documents';
import { PayrollAccountsService } from './books/payroll-accounts.service';
import { PayrollBooksAccess } from './books/payroll-books.access';
import { PayrollBooksService } from './books/payroll-books.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EmployeesModule } from '../employees/employees.module';
import { LeaveModule } from '../leave/leave.module';
import { ReferenceModule } from '../reference/reference.module';
import { PAYROLL_CONFIG_ENTITIES } from './entities/payroll-config.entities';
import { PAYROLL_RUN_ENTITIES } from './entities/payroll-run.entities';
import { EmployeeSalaryController, PAYROLL_CRUD_CONTROLLERS, PayrollConfigController } from './config/payroll-config.controller';
import { PayrollConfigService } from './config/payroll-config.service';
import { PayFrequenciesService } from './config/pay-frequencies.service';
import { PayrollArrearsService } from './runs/payroll-arrears.service';
import { PayrollTablesService } from './config/payroll-tables.service';
import { PayrollTablesController } from './config/payroll-tables.controller';
import { PayrollTestsController, PayrollTestsCrudController } from './config/payroll-tests.controller';
import { PayrollTestsService } from './config/payroll-tests.service';
import { PayrollEmployeesService } from './config/payroll-employees.service';
import { PayrollInputsService } from './runs/payroll-inputs.service';
import { PayrollRunsController } from './runs/payroll-runs.controller';
import { PayrollGridService } from './runs/payroll-grid.service';
import { PayrollProcessingService } from './runs/payroll-processing.service';
import { PayrollChunksService } from './runs/payroll-chunks.service';
import { PayrollChunksRepository } from './runs/payroll-chunks.repository';
import { PayrollRunsService } from './runs/payroll-runs.service';
import { PayrollRunsRepository } from './runs/payroll-runs.repository';
import { PayrollRunInputsRepository } from './runs/payroll-run-inputs.repository';
import { PayrollSettlements } from './runs/payroll-settlements';
import { PayslipsPersonalData } from './payslips/payslips.personal-data';
import { BankFilesPersonalData } from './books/bank-files.personal-data';
import { JournalSplits } from './books/journal-splits';
import { PayrollColumnPreviewController, PayrollExplainController } from './explain/payroll-explain.controller';
import { PayrollPreviewService } from './explain/payroll-preview.service';
import { PayrollExplainService } from './explain/payroll-explain.service';
import { PayrollDiffService } from './explain/payroll-diff.service';
import { AuditModule } from '../audit/audit.module';
import { PayrollTransitionsService } from './runs/payroll-transitions.service';
import { PayrollProcessor } from './runs/payroll.processor';
import {
  EmployeePayslipsController,
  PayrollPayslipsController,
  PayslipTemplatesController,
} from './payslips/payslips.controller';
import { PayslipsService } from './payslips/payslips.service';
import { PayslipChunksService } from './payslips/payslip-chunks.service';
import { PayslipChunksRepository } from './runs/payslip-chunks.repository';
import { PayslipContextsService } from './payslips/payslip-contexts.service';
import { PayslipTemplatesService } from './payslips/payslip-templates.service';
import { SettingsModule } from '../settings/settings.module';
import { DocumentsModule } from '../documents/documents.module';
import { PdfModule } from '../common/pdf/pdf.module';
import { PayslipPdfsService } from './payslips/payslip-pdfs.service';
import { PayslipDeliveriesRepository } from './payslips/payslip-deliveries.repository';
import { PayslipDeliveryService } from './payslips/payslip-delivery.service';
import { PayslipMailKind } from './payslips/payslip-mail.kind';
import { PayrollPersonalData } from './payroll.personal-data';

declareApiTag(
  'Payroll configuration',
  'Pay frequencies, deduction groups, salary components, salaries, payroll employees, columns, scripts',
  150,
);
declareApiTag('Payroll runs', 'Payrolls: processing, the data grid, errors', 160);
declareApiTag(
  'Payroll books',
  'Paying and posting a Completed payroll: the SEPA bank file (ISO 20022 pain.001), the accounting journal, the register',
  170,
);
declareApiTag('Payslips', 'Payslip templates, payslips, their PDFs (headless Chromium) and their e-mail delivery', 180);

declareMobileModule({ key: 'payslips', label: 'Payslips' });

declareExtension({
  code: 'payroll',
  label: 'Payroll',
  features: ['salary', 'payroll-columns', 'payroll-runs', 'payslips', 'bank-files', 'journal'],
});

@Module({
  imports: [
    CalendarsModule,
    AuditModule,
    DocumentsModule,
    EmployeesModule,
    PdfModule,
    LeaveModule,
    ReferenceModule,
    SettingsModule,
    TypeOrmModule.forFeature([...PAYROLL_CONFIG_ENTITIES, ...PAYROLL_RUN_ENTITIES, PayrollAccount, PayrollBankFile]),
  ],
  controllers: [
    PayrollAccountsController,
    PayrollBooksController,
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
    PayrollTablesController,
  ],
  providers: [
    PayrollPersonalData,
    BankFileService,
    BooksRepository,
    BookWindows,
    BankFileDocuments,
    PayrollAccountsService,
    PayrollBooksAccess,
    PayrollBooksService,
    PayrollReactions,
    SalariesImport,
    PayrollEmployeesImport,
    PayrollDataImport,
    PayrollConfigService,
    PayFrequenciesService,
    PayrollArrearsService,
    PayrollTablesService,
    PayrollTestsService,
    PayrollEmployeesService,
    PayrollInputsService,
    PayrollRunsService,
    PayrollRunsRepository,
    PayrollRunInputsRepository,
    PayrollSettlements,
    PayslipsPersonalData,
    BankFilesPersonalData,
    JournalSplits,
    PayrollExplainService,
    PayrollDiffService,
    PayrollPreviewService,
    PayrollTransitionsService,
    PayrollGridService,
    PayrollProcessingService,
    PayrollChunksService,
    PayrollChunksRepository,
    PayslipChunksRepository,
    PayslipChunksService,
    PayrollProcessor,
    PayslipsService,
    PayslipContextsService,
    PayslipTemplatesService,
    PayslipPdfsService,
    PayslipDeliveriesRepository,
    PayslipDeliveryService,
    PayslipMailKind,
  ],
  exports: [PayrollConfigService, PayrollEmployeesService, PayrollInputsService, PayrollRunsService, PayrollTransitionsService],
})
export class PayrollModule {}

import { Platform1763800000000 } from './1763800000000-Platform';
import { IdempotencyKeys1763800000001 } from './1763800000001-IdempotencyKeys';
import { Employees1763800000002 } from './1763800000002-Employees';
import { UserAccounts1763800000003 } from './1763800000003-UserAccounts';
import { Attendance1763800000004 } from './1763800000004-Attendance';
import { Leave1763800000005 } from './1763800000005-Leave';
import { Timesheets1763800000006 } from './1763800000006-Timesheets';
import { Utf8mb41763800000007 } from './1763800000007-Utf8mb4';
import { PayrollConfig1763800000008 } from './1763800000008-PayrollConfig';
import { PayrollRuns1763800000009 } from './1763800000009-PayrollRuns';
import { Payslips1763800000010 } from './1763800000010-Payslips';
import { PayrollClaims1763800000011 } from './1763800000011-PayrollClaims';
import { Tasks1763800000012 } from './1763800000012-Tasks';
import { LeaveDays1763800000013 } from './1763800000013-LeaveDays';
import { InsightRollups1763800000014 } from './1763800000014-InsightRollups';
import { EmployeeSearch1763800000015 } from './1763800000015-EmployeeSearch';
import { EmployeeListIndexes1763800000016 } from './1763800000016-EmployeeListIndexes';
import { AuditLog1763800000017 } from './1763800000017-AuditLog';
import { Webhooks1763800000018 } from './1763800000018-Webhooks';
import { EmployeeStatusCodeIndex1763800000019 } from './1763800000019-EmployeeStatusCodeIndex';
import { WideTextColumns1763800000020 } from './1763800000020-WideTextColumns';
import { Imports1763800000021 } from './1763800000021-Imports';
import { DocumentTypes1763800000022 } from './1763800000022-DocumentTypes';
import { Documents1763800000023 } from './1763800000023-Documents';
import { PayslipDelivery1763800000024 } from './1763800000024-PayslipDelivery';
import { Notifications1763800000025 } from './1763800000025-Notifications';
import { NotificationEmails1763800000026 } from './1763800000026-NotificationEmails';
import { LeaveLedger1763800000027 } from './1763800000027-LeaveLedger';
import { PayrollTests1763800000028 } from './1763800000028-PayrollTests';
import { PayrollRunInputs1763800000029 } from './1763800000029-PayrollRunInputs';
import { ImportRestarts1763800000030 } from './1763800000030-ImportRestarts';
import { OutboxRelay1763800000031 } from './1763800000031-OutboxRelay';
import { MailOutbox1763800000032 } from './1763800000032-MailOutbox';
import { EmploymentHistory1763800000033 } from './1763800000033-EmploymentHistory';
import { EventFeed1763800000034 } from './1763800000034-EventFeed';
import { RollupsByDayDepartment1763800000035 } from './1763800000035-RollupsByDayDepartment';
import { RecordsUpdatedAt1763800000036 } from './1763800000036-RecordsUpdatedAt';
import { PayrollProration1763800000037 } from './1763800000037-PayrollProration';
import { PayrollTables1763800000038 } from './1763800000038-PayrollTables';
import { ApprovalChains1763800000039 } from './1763800000039-ApprovalChains';
import { BankFilesAndJournal1763800000040 } from './1763800000040-BankFilesAndJournal';
import { AccrualChanges1763800000047 } from './1763800000047-AccrualChanges';
import { WorkCalendars1763800000048 } from './1763800000048-WorkCalendars';
import { EmployeeCalendars1763800000049 } from './1763800000049-EmployeeCalendars';
import { CustomFields1763800000050 } from './1763800000050-CustomFields';
import { CustomFieldValues1763800000051 } from './1763800000051-CustomFieldValues';
import { DatedExtensions1763800000052 } from './1763800000052-DatedExtensions';
import { CustomFieldValuesByEmployee1763800000053 } from './1763800000053-CustomFieldValuesByEmployee';
import { Checklists1763800000054 } from './1763800000054-Checklists';
import { ExpenseSetup1763800000055 } from './1763800000055-ExpenseSetup';
import { ExpenseClaims1763800000056 } from './1763800000056-ExpenseClaims';
import { Privacy1763800000057 } from './1763800000057-Privacy';
import { PrivacyExportsRetention1763800000058 } from './1763800000058-PrivacyExportsRetention';
import { PayrollChunks1763800000059 } from './1763800000059-PayrollChunks';
import { PayslipChunks1763800000060 } from './1763800000060-PayslipChunks';
import { PayrollBankFiles1763800000046 } from './1763800000046-PayrollBankFiles';
import { Identity1763800000041 } from './1763800000041-Identity';
import { OidcLogins1763800000042 } from './1763800000042-OidcLogins';
import { LeaveAccrualRuns1763800000043 } from './1763800000043-LeaveAccrualRuns';
import { ChangeMarkHoles1763800000045 } from './1763800000045-ChangeMarkHoles';
import { LeaveLiabilitySnapshots1763800000044 } from './1763800000044-LeaveLiabilitySnapshots';

/** Every migration, oldest first. The app, the CLI and ormconfig.ts all use this list. */
export const MIGRATIONS = [
  Platform1763800000000,
  IdempotencyKeys1763800000001,
  Employees1763800000002,
  UserAccounts1763800000003,
  Attendance1763800000004,
  Leave1763800000005,
  Timesheets1763800000006,
  Utf8mb41763800000007,
  PayrollConfig1763800000008,
  PayrollRuns1763800000009,
  Payslips1763800000010,
  PayrollClaims1763800000011,
  Tasks1763800000012,
  LeaveDays1763800000013,
  InsightRollups1763800000014,
  EmployeeSearch1763800000015,
  EmployeeListIndexes1763800000016,
  AuditLog1763800000017,
  Webhooks1763800000018,
  EmployeeStatusCodeIndex1763800000019,
  WideTextColumns1763800000020,
  Imports1763800000021,
  DocumentTypes1763800000022,
  Documents1763800000023,
  PayslipDelivery1763800000024,
  Notifications1763800000025,
  NotificationEmails1763800000026,
  LeaveLedger1763800000027,
  PayrollTests1763800000028,
  PayrollRunInputs1763800000029,
  ImportRestarts1763800000030,
  OutboxRelay1763800000031,
  MailOutbox1763800000032,
  EmploymentHistory1763800000033,
  EventFeed1763800000034,
  RollupsByDayDepartment1763800000035,
  RecordsUpdatedAt1763800000036,
  PayrollProration1763800000037,
  PayrollTables1763800000038,
  ApprovalChains1763800000039,
  BankFilesAndJournal1763800000040,
  Identity1763800000041,
  OidcLogins1763800000042,
  LeaveAccrualRuns1763800000043,
  LeaveLiabilitySnapshots1763800000044,
  ChangeMarkHoles1763800000045,
  PayrollBankFiles1763800000046,
  AccrualChanges1763800000047,
  WorkCalendars1763800000048,
  EmployeeCalendars1763800000049,
  CustomFields1763800000050,
  CustomFieldValues1763800000051,
  DatedExtensions1763800000052,
  CustomFieldValuesByEmployee1763800000053,
  Checklists1763800000054,
  ExpenseSetup1763800000055,
  ExpenseClaims1763800000056,
  Privacy1763800000057,
  PrivacyExportsRetention1763800000058,
  PayrollChunks1763800000059,
  PayslipChunks1763800000060,
];

import { bicProblem, ibanProblem } from '../../common/banking/iban';
import { declareSettings } from '../../settings/settings.registry';

/** Payroll's settings: the paying account and payslips (declared when this file loads, settings/settings.registry.ts). */
export const COMPANY_IBAN = 'Company IBAN';
export const COMPANY_BIC = 'Company BIC';
export const PAYSLIP_PAPER_SIZE = 'Payslip Paper Size';
export const PAYSLIP_PDF_PASSWORD = 'Payslip PDF Password';
export const PAYSLIP_EMAIL_ADDRESS = 'Payslip E-mail Address';
export const PAYSLIP_EMAIL_SUBJECT = 'Payslip E-mail Subject';
export const PAYSLIP_EMAIL_BODY = 'Payslip E-mail Body';

/** The payslip e-mail as shipped: Handlebars over the payslip's context (employee, payroll, company). */
export const DEFAULT_PAYSLIP_EMAIL_SUBJECT = 'Your payslip: {{payroll.name}}';
export const DEFAULT_PAYSLIP_EMAIL_BODY = [
  '<p>Dear {{employee.first_name}},</p>',
  '<p>your payslip for {{payroll.name}} ({{payroll.date_start}} to {{payroll.date_end}}) is attached as a PDF.',
  'It is also among your documents.</p>',
  '<p>{{company.name}}</p>',
].join('\n');

declareSettings(
  {
    name: COMPANY_IBAN,
    group: 'Company',
    description:
      "The account salaries are paid from: the debtor of the payroll's bank file (ISO 13616, without spaces), or empty.",
    default: '',
    pattern: /^([A-Z]{2}[0-9]{2}[A-Z0-9]{1,30})?$/,
    maxLength: 34,
    check: (v) => (v === '' ? null : ibanProblem(v)),
  },
  {
    name: COMPANY_BIC,
    group: 'Company',
    description: "The BIC of the company's bank (ISO 9362, 8 or 11 characters), or empty (SEPA needs only the IBAN).",
    default: '',
    pattern: /^([A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?)?$/,
    maxLength: 11,
    check: (v) => (v === '' ? null : bicProblem(v)),
  },
  {
    name: PAYSLIP_PAPER_SIZE,
    group: 'Payroll',
    description: 'The page size of payslip PDFs.',
    default: 'A4',
    values: ['A4', 'Letter'],
  },
  {
    name: PAYSLIP_PDF_PASSWORD,
    group: 'Payroll',
    description:
      "Encrypts payslip PDFs (AES-256) with the employee's code (employee_id) or birthday (birthday, as DDMMYYYY); none: not encrypted. Applies to PDFs generated after the change.",
    default: 'none',
    values: ['none', 'employee_id', 'birthday'],
  },
  {
    name: PAYSLIP_EMAIL_ADDRESS,
    group: 'Payroll',
    description: "Where payslips are e-mailed: the employee's work or private e-mail.",
    default: 'work',
    values: ['work', 'private'],
  },
  {
    name: PAYSLIP_EMAIL_SUBJECT,
    group: 'Payroll',
    description: "The payslip e-mail's subject: a Handlebars template over the payslip's employee, payroll and company.",
    default: DEFAULT_PAYSLIP_EMAIL_SUBJECT,
    maxLength: 500,
  },
  {
    name: PAYSLIP_EMAIL_BODY,
    group: 'Payroll',
    description:
      "The payslip e-mail's HTML body: a Handlebars template over the payslip's employee, payroll and company (values escaped, no code run; the same rules as payslip templates).",
    default: DEFAULT_PAYSLIP_EMAIL_BODY,
    maxLength: 20_000,
  },
);

import { ApiProperty } from '@nestjs/swagger';

export class CountryDto {
  @ApiProperty({ example: 'DE', description: 'ISO 3166-1 alpha-2' }) code: string;
  @ApiProperty({ example: 'Germany' }) name: string;
  @ApiProperty({ example: 'DEU', description: 'ISO 3166-1 alpha-3' }) iso3: string;
  @ApiProperty({ example: '276', description: 'ISO 3166-1 numeric, three digits' }) numeric: string;
}

/** The seed's mobile modules: each is true when a module of this build declared it and its setting is Yes. */
export const MOBILE_MODULE_KEYS = [
  'attendance',
  'leaves',
  'timesheets',
  'staffdirectory',
  'payslips',
  'insights',
  'tasks',
  'expenses',
] as const;

export class MobileModulesDto {
  @ApiProperty() attendance: boolean;
  @ApiProperty() leaves: boolean;
  @ApiProperty() timesheets: boolean;
  @ApiProperty() staffdirectory: boolean;
  @ApiProperty() payslips: boolean;
  @ApiProperty() insights: boolean;
  @ApiProperty() tasks: boolean;
  @ApiProperty() expenses: boolean;
}

/** The seed's extension entry. */
export class ExtensionDto {
  @ApiProperty({ example: 'payroll' }) code: string;
  @ApiProperty() installed: boolean;
  @ApiProperty({ example: 'Payroll' }) label: string;
  @ApiProperty({ type: [String], example: ['payroll-columns', 'payroll-runs', 'payslips'] }) features: string[];
  @ApiProperty({ example: '0.1.0', description: 'the service version' }) version: string;
  @ApiProperty() isGroup: boolean;
}

import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { IMPORT_KIND_NAMES } from '../../common/import/import-kinds.constants';
import { IsRefId } from '../../common/validation/decorators';
import { EXPORT_FORMATS } from '../../common/export/exportable';
import { IMPORT_MODES, IMPORT_STATUSES, ImportMode, ImportStatus } from '../entities/import.entities';

export class ImportDto {
  @ApiInt() id: number;
  @ApiProperty({ type: String, enum: IMPORT_KIND_NAMES }) kind: string;
  @ApiProperty({ example: 'people.xlsx' }) file_name: string;
  @ApiProperty({ description: 'true: rows are checked and nothing is written (commit it to import)' }) dry_run: boolean;
  @ApiProperty({ enum: IMPORT_MODES }) mode: ImportMode;
  @ApiProperty({ enum: IMPORT_STATUSES }) status: ImportStatus;
  @ApiInt({ nullable: true, description: 'payroll-data: the payroll whose cells it edits' }) payroll: number | null;
  @ApiInt({ description: 'data rows read so far' }) rows_total: number;
  @ApiInt() rows_valid: number;
  @ApiInt() rows_failed: number;
  @ApiInt({ description: '0-100' }) progress: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'why the whole file failed; row problems are at /imports/{id}/errors',
  })
  error: string | null;
  @ApiInt({ description: 'the user who uploaded it' }) created_by: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finished_at: string | null;
}

export class ImportErrorDto {
  @ApiInt({ description: '1 = the first data row; 0 = the header row' }) row: number;
  @ApiProperty({ type: String, nullable: true, description: 'the column as the file names it' }) column: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'the API field' }) field: string | null;
  @ApiProperty({ example: 'must be a date (YYYY-MM-DD)' }) message: string;
}

export class CreateImportQueryDto {
  @ApiProperty({ type: String, enum: IMPORT_KIND_NAMES })
  @IsIn(IMPORT_KIND_NAMES)
  kind: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], default: 'true', description: 'true: check only; commit it later' })
  @IsOptional()
  @IsIn(['true', 'false'])
  dry_run?: 'true' | 'false';

  @ApiPropertyOptional({ enum: IMPORT_MODES, default: 'all-or-nothing' })
  @IsOptional()
  @IsIn(IMPORT_MODES)
  mode?: ImportMode;

  @ApiIntOptional({ description: 'payroll-data: the payroll whose editable cells the file sets' })
  @IsOptional()
  @Type(() => Number)
  @IsRefId()
  payroll?: number;
}

export class CommitImportQueryDto {
  @ApiPropertyOptional({
    enum: IMPORT_MODES,
    description: "the dry run's mode unless given (valid-rows imports a file that has invalid rows)",
  })
  @IsOptional()
  @IsIn(IMPORT_MODES)
  mode?: ImportMode;
}

export class TemplateQueryDto {
  @ApiPropertyOptional({ enum: EXPORT_FORMATS, default: 'csv' })
  @IsOptional()
  @IsIn(EXPORT_FORMATS)
  format?: 'csv' | 'xlsx';
}

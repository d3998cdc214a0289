import { ApiProperty } from '@nestjs/swagger';
import { ApiInt } from '../../common/openapi/api-int';
import {
  PERSONAL_DATA_EXPORT_STATUSES,
  PersonalDataExport,
  PersonalDataExportStatus,
} from '../entities/personal-data-export.entity';

export class PersonalDataExportDto {
  @ApiInt() id: number;
  @ApiInt({ description: 'the employee whose data it holds' }) employee: number;
  @ApiProperty({
    enum: PERSONAL_DATA_EXPORT_STATUSES,
    description: 'Queued → Running → Ready (its file downloadable until expires_at) or Failed; Expired once its file is removed',
  })
  status: PersonalDataExportStatus;
  @ApiInt({ type: Number, nullable: true, description: 'the ZIP’s size in bytes, once Ready' }) size: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'why it failed' }) error: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finished_at: string | null;
  @ApiProperty({ format: 'date-time', description: 'when its file is removed: 7 days after it was asked for' })
  expires_at: string;
}

export function toPersonalDataExportDto(e: PersonalDataExport): PersonalDataExportDto {
  return {
    id: e.id,
    employee: e.employeeId,
    status: e.status,
    size: e.size,
    error: e.error,
    created_at: e.createdAt.toISOString(),
    finished_at: e.finishedAt?.toISOString() ?? null,
    expires_at: e.expiresAt.toISOString(),
  };
}

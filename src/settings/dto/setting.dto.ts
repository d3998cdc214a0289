import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

export class SettingDto {
  @ApiProperty({ example: 'Enable Rest Api' }) name: string;
  @ApiProperty({ example: 'Yes' }) value: string;
  @ApiProperty({ example: 'Other' }) group: string;
  @ApiProperty() description: string;
  @ApiPropertyOptional({ type: [String], nullable: true, example: ['Yes', 'No'] }) allowed_values: string[] | null;
}

export class UpdateSettingDto {
  @ApiProperty({ example: 'Enable Rest Api' })
  @IsString()
  @MaxLength(100)
  name: string;

  @ApiProperty({ example: 'Yes' })
  @IsString()
  @MaxLength(2000)
  value: string;
}

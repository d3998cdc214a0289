import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { CreateReferenceDto, ReferenceDto } from '../../reference/dto/reference.dto';

export class DocumentTypeDto extends ReferenceDto {
  @ApiProperty({ description: 'documents of this type carry a valid_until and are chased before it' }) expires: boolean;
  @ApiInt({
    type: [Number],
    example: [30, 7, 1],
    description: 'reminders this many days before valid_until (and on the day)',
  })
  notify_days_before: number[];
  @ApiProperty({ description: 'the employee reads its own documents of this type' }) visible_to_employee: boolean;
  @ApiProperty({ description: "a Manager reads its direct reports' documents of this type" }) visible_to_manager: boolean;
  @ApiProperty({ description: 'the employee uploads its own documents of this type' }) employee_may_upload: boolean;
}

export class CreateDocumentTypeDto extends CreateReferenceDto {
  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  expires?: boolean;

  @ApiIntOptional({ type: [Number], default: [30, 7, 1], description: 'whole days, 0-365, at most 10' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @ArrayUnique()
  @IsInt({ each: true })
  @Min(0, { each: true })
  @Max(365, { each: true })
  notify_days_before?: number[];

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  visible_to_employee?: boolean;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  visible_to_manager?: boolean;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  employee_may_upload?: boolean;
}

export class UpdateDocumentTypeDto extends PartialType(CreateDocumentTypeDto) {}

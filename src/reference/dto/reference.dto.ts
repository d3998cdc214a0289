import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { IsMoney } from '../../common/money/money';
import { IsCurrencyCode, IsRefId, Nullable, SingleLine, Trim } from '../../common/validation/decorators';

export class ReferenceDto {
  @ApiInt({ example: 1 }) id: number;
  @ApiProperty({ example: 'Software Engineer' }) name: string;
}

export class CreateReferenceDto {
  @ApiProperty({ minLength: 1, maxLength: 100 })
  @Trim()
  @IsString()
  @SingleLine()
  @Length(1, 100)
  name: string;
}

export class UpdateReferenceDto extends PartialType(CreateReferenceDto) {}

export class DepartmentDto extends ReferenceDto {
  @ApiInt({ type: Number, nullable: true, description: 'parent department id; null at the root' }) parent: number | null;
  @ApiInt({
    type: Number,
    nullable: true,
    description: "the employee who heads it: the approver role department_head (issue 45) reads it, else the nearest parent's",
  })
  head: number | null;
}

export class CreateDepartmentDto extends CreateReferenceDto {
  @ApiIntOptional({ type: Number, nullable: true })
  @IsOptional()
  @Nullable()
  @IsRefId()
  parent?: number | null;

  @ApiIntOptional({ type: Number, nullable: true, description: 'an employee id' })
  @IsOptional()
  @Nullable()
  @IsRefId()
  head?: number | null;
}

export class UpdateDepartmentDto extends PartialType(CreateDepartmentDto) {}

export class PayGradeDto extends ReferenceDto {
  @ApiProperty({ type: String, nullable: true, example: 'EUR' }) currency: string | null;
  @ApiProperty({ type: String, nullable: true, example: '3000.00' }) min_salary: string | null;
  @ApiProperty({ type: String, nullable: true, example: '5000.00' }) max_salary: string | null;
}

export class CreatePayGradeDto extends CreateReferenceDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: 'ISO 4217 code' })
  @IsOptional()
  @Nullable()
  @IsCurrencyCode()
  currency?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'decimal string; a JSON number is accepted' })
  @IsOptional()
  @Nullable()
  @IsMoney()
  min_salary?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @Nullable()
  @IsMoney()
  max_salary?: string | null;
}

export class UpdatePayGradeDto extends PartialType(CreatePayGradeDto) {}

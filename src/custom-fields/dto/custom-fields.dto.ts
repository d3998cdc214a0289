import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { Nullable, OptionalText, SingleLine, Trim } from '../../common/validation/decorators';
import { AcceptsReadOnlyOf } from '../../common/validation/read-only';
import {
  CUSTOM_FIELD_AUDIENCES,
  CUSTOM_FIELD_EDITORS,
  CUSTOM_FIELD_TYPES,
  CustomFieldAudience,
  CustomFieldEditor,
  CustomFieldType,
  DEFAULT_AUDIENCE,
} from '../entities/custom-field.entity';

/** The bounds of definitions (docs/api/custom-fields.md). */
export const CUSTOM_FIELD_LIMITS = { fields: 200, options: 200, position: 10_000 } as const;
export const CUSTOM_FIELD_KEY = /^[a-z][a-z0-9_]{0,39}$/;

export class CustomFieldOptionDto {
  @ApiProperty({ maxLength: 100, example: 'M', description: 'what a value holds: unique within the field' })
  @Trim()
  @IsString()
  @SingleLine()
  @Length(1, 100)
  value: string;
  @ApiProperty({ maxLength: 100, example: 'Medium' }) @Trim() @IsString() @SingleLine() @Length(1, 100) label: string;
}

export class CustomFieldDto {
  @ApiInt() id: number;
  @ApiProperty({ pattern: CUSTOM_FIELD_KEY.source, example: 'tshirt_size', description: 'unique and immutable' }) key: string;
  @ApiProperty({ example: 'T-shirt size' }) label: string;
  @ApiProperty({ enum: CUSTOM_FIELD_TYPES }) type: CustomFieldType;
  @ApiProperty({
    type: [CustomFieldOptionDto],
    nullable: true,
    description: 'the choices of select and multiselect; null for the other types',
  })
  options: CustomFieldOptionDto[] | null;
  @ApiProperty({ description: 'every employee has a value (checked on create, and on a PUT that clears it)' }) required: boolean;
  @ApiProperty({ description: 'no two employees share a value' }) unique: boolean;
  @ApiProperty({ description: 'a dated field of the employment history (set through /changes, read with as_of)' }) dated: boolean;
  @ApiProperty({ description: 'personal data: null to callers who may not see the personal details of the employee' })
  pii: boolean;
  @ApiProperty({
    enum: CUSTOM_FIELD_AUDIENCES,
    isArray: true,
    description:
      'the user levels that see the values of the employees they may see, and `self`: the employee its own; Admins always see them',
  })
  visible_to: CustomFieldAudience[];
  @ApiProperty({ enum: CUSTOM_FIELD_EDITORS, description: 'admin: Admins only; self: the employee its own value too' })
  editable_by: CustomFieldEditor;
  @ApiProperty({ description: 'carried by the items of GET /employees' }) in_list: boolean;
  @ApiInt({ minimum: 0, maximum: CUSTOM_FIELD_LIMITS.position, description: 'the order of forms, then id' }) position: number;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
}

export class CreateCustomFieldDto {
  @ApiProperty({ pattern: CUSTOM_FIELD_KEY.source, example: 'tshirt_size' })
  @IsString()
  @Matches(CUSTOM_FIELD_KEY, { message: 'must be a lower-case letter, then up to 39 lower-case letters, digits or underscores' })
  key: string;
  @ApiProperty({ maxLength: 100, example: 'T-shirt size' }) @Trim() @IsString() @SingleLine() @Length(1, 100) label: string;
  @ApiProperty({ enum: CUSTOM_FIELD_TYPES }) @IsIn(CUSTOM_FIELD_TYPES) type: CustomFieldType;
  @ApiPropertyOptional({
    type: [CustomFieldOptionDto],
    nullable: true,
    description: 'required for select and multiselect, refused for the others',
  })
  @IsOptional()
  @Nullable()
  @IsArray()
  @ArrayMaxSize(CUSTOM_FIELD_LIMITS.options)
  @ValidateNested({ each: true })
  @Type(() => CustomFieldOptionDto)
  options?: CustomFieldOptionDto[] | null;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() required?: boolean;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() unique?: boolean;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() dated?: boolean;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() pii?: boolean;
  @ApiPropertyOptional({ enum: CUSTOM_FIELD_AUDIENCES, isArray: true, default: DEFAULT_AUDIENCE })
  @IsOptional()
  @IsArray()
  @ArrayUnique({ message: 'must not repeat an audience' })
  @IsIn(CUSTOM_FIELD_AUDIENCES, { each: true })
  visible_to?: CustomFieldAudience[];
  @ApiPropertyOptional({ enum: CUSTOM_FIELD_EDITORS, default: 'admin' })
  @IsOptional()
  @IsIn(CUSTOM_FIELD_EDITORS)
  editable_by?: CustomFieldEditor;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() in_list?: boolean;
  @ApiIntOptional({ minimum: 0, maximum: CUSTOM_FIELD_LIMITS.position, description: 'default: after the last field' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(CUSTOM_FIELD_LIMITS.position)
  position?: number;
  @OptionalText(1000, { multiLine: true }) description?: string | null;
}

/** A PUT: what the body names changes; `key` is immutable (the same key is accepted, as GET returned it). */
@AcceptsReadOnlyOf(() => CustomFieldDto)
export class UpdateCustomFieldDto extends PartialType(CreateCustomFieldDto) {}

export class CustomFieldDeletedDto {
  @ApiInt() id: number;
}

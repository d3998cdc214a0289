import { ApiProperty } from '@nestjs/swagger';
import { ApiInt } from '../../common/openapi/api-int';

export class AnonymisedDto {
  @ApiInt() id: number;
  @ApiProperty({ example: 'Former employee 17', description: 'what its names became' }) name: string;
  @ApiProperty({ format: 'date-time' }) anonymised_at: string;
}

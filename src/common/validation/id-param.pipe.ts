import { PipeTransform } from '@nestjs/common';
import { ValidationException } from '../errors/domain.exception';

/** A path id: a positive 32-bit integer, else 400 naming the parameter. */
export class IdParamPipe implements PipeTransform<string, number> {
  constructor(private readonly name = 'id') {}

  transform(value: string): number {
    const n = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
    if (!(n >= 1 && n <= 2_147_483_647)) throw ValidationException.field(this.name, 'must be a positive integer');
    return n;
  }
}

import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString } from 'class-validator';
import { ValidationException } from '../errors/domain.exception';
import { createValidationPipe } from './validation-pipe';

class OptionalQuery {
  @IsOptional() @IsString() as_of?: string;
  @IsOptional() @Type(() => Number) @IsInt() limit = 50;
  @IsOptional() @IsString({ each: true }) tags: string[] = [];
}

class RequiredQuery {
  @IsString() period!: string;
}

describe('the validation pipe, an empty query string', () => {
  const pipe = createValidationPipe();
  const query = <T>(metatype: new () => T) => ({ type: 'query' as const, metatype });

  it('gives a fresh instance of the DTO every time, defaults included', async () => {
    const first = (await pipe.transform({}, query(OptionalQuery))) as OptionalQuery;
    const second = (await pipe.transform(Object.create(null), query(OptionalQuery))) as OptionalQuery;
    for (const dto of [first, second]) {
      expect(dto).toBeInstanceOf(OptionalQuery);
      expect(dto).toEqual(Object.assign(new OptionalQuery(), {}));
    }
    first.tags.push('changed');
    expect(second.tags).toEqual([]);
    expect(first).not.toBe(second);
  });

  it('validates an empty query against a DTO once, then builds it without validating', async () => {
    class Once {
      @IsOptional() @IsString() q?: string;
    }
    const validate = jest.spyOn(pipe as unknown as { validate: () => unknown }, 'validate');
    for (let i = 0; i < 3; i++) await pipe.transform({}, query(Once));
    expect(validate).toHaveBeenCalledTimes(1);
    await pipe.transform({ q: 'a' }, query(Once));
    expect(validate).toHaveBeenCalledTimes(2);
    validate.mockRestore();
  });

  it('is still refused by a DTO with a required parameter, every time', async () => {
    await pipe.transform({}, query(OptionalQuery));
    for (let i = 0; i < 3; i++)
      await expect(pipe.transform({}, query(RequiredQuery))).rejects.toBeInstanceOf(ValidationException);
    await expect(pipe.transform({ period: '2024' }, query(RequiredQuery))).resolves.toEqual({ period: '2024' });
  });

  it('does not let a non-empty query through the shortcut', async () => {
    await pipe.transform({}, query(OptionalQuery));
    await expect(pipe.transform({ limit: 'x' }, query(OptionalQuery))).rejects.toBeInstanceOf(ValidationException);
    await expect(pipe.transform({ other: '1' }, query(OptionalQuery))).rejects.toBeInstanceOf(ValidationException);
    await expect(pipe.transform({ limit: '7' }, query(OptionalQuery))).resolves.toMatchObject({ limit: 7 });
  });
});

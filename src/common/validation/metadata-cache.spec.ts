import { IsInt, IsOptional, IsString, validateSync } from 'class-validator';
import { memoizeValidationMetadata } from './metadata-cache';

describe('memoizeValidationMetadata', () => {
  beforeAll(() => memoizeValidationMetadata());

  const problems = (value: object) =>
    validateSync(value, { whitelist: true, forbidNonWhitelisted: true }).map((e) => [
      e.property,
      Object.keys(e.constraints ?? {}),
    ]);

  it('keeps answering with every rule of a class, its parents included', () => {
    class Base {
      @IsString() name!: unknown;
    }
    class Child extends Base {
      @IsInt() count!: unknown;
    }
    const child = Object.assign(new Child(), { name: 1, count: 'x' });
    expect(problems(child)).toEqual([
      ['count', ['isInt']],
      ['name', ['isString']],
    ]);
    // The second lookup comes from the cache: the same answer.
    expect(problems(child)).toEqual(problems(Object.assign(new Child(), { name: 1, count: 'x' })));
    expect(problems(Object.assign(new Child(), { name: 'a', count: 2 }))).toEqual([]);
  });

  it('forgets what it kept when a rule is added later, to the class or to a parent', () => {
    class Late {
      @IsOptional() @IsString() name?: unknown;
    }
    class LateChild extends Late {}
    expect(problems(Object.assign(new Late(), { name: 'a', extra: 1 }))).toEqual([['extra', ['whitelistValidation']]]);
    expect(problems(Object.assign(new LateChild(), { name: 'a', extra: 1 }))).toEqual([['extra', ['whitelistValidation']]]);
    // A decorator applied at run time: the cached lookups must not hide it.
    IsInt()(Late.prototype, 'extra');
    expect(problems(Object.assign(new Late(), { name: 'a', extra: 'x' }))).toEqual([['extra', ['isInt']]]);
    expect(problems(Object.assign(new LateChild(), { name: 'a', extra: 'x' }))).toEqual([['extra', ['isInt']]]);
    expect(problems(Object.assign(new LateChild(), { name: 'a', extra: 1 }))).toEqual([]);
  });
});

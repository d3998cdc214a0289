import { timeScale, withScaledTimeout } from './time-scale';

describe('HR_TEST_TIME_SCALE: hang guards multiplied on a shared machine', () => {
  it('multiplies the timeout a test or hook is given, and only that argument', () => {
    const calls: unknown[][] = [];
    const register = Object.assign((...args: unknown[]) => void calls.push(args), { skip: () => 'skipped' });
    const test = withScaledTimeout(register, 3, 2);
    const hook = withScaledTimeout(register, 3, 1);
    const fn = () => undefined;
    test('named', fn, 20_000);
    test('no timeout', fn);
    hook(fn, 60_000);
    hook(fn);
    expect(calls).toEqual([['named', fn, 60_000], ['no timeout', fn], [fn, 180_000], [fn]]);
    // The modifiers stay reachable (itIf's it.skip, describe's it.each).
    expect(test.skip).toBe(register.skip);
  });

  it('is applied to the globals of every test file exactly when set (the setup file)', () => {
    // This file runs with whatever .ci/run or the caller set: the wrapper is in place exactly when it is not 1.
    const scale = timeScale(process.env.HR_TEST_TIME_SCALE);
    expect((it as unknown as { name: string }).name === 'wrapped').toBe(scale !== 1);
  });

  it('refuses a value that would shorten or void the limits', () => {
    expect(timeScale(undefined)).toBe(1);
    expect(timeScale('2.5')).toBe(2.5);
    for (const bad of ['0.5', 'fast', '-1', 'Infinity']) expect(() => timeScale(bad)).toThrow(/HR_TEST_TIME_SCALE/);
  });
});

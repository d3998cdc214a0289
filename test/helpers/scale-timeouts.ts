import { TIME_SCALE, withScaledTimeout } from './time-scale';

// jest's setupFilesAfterEnv: each test file's `it`, `test` and hooks with HR_TEST_TIME_SCALE applied
// to the timeouts they are given (jest.config.js scales the default). test/helpers/time-scale.ts.
if (TIME_SCALE !== 1) {
  const g = globalThis as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ['it', 'test', 'fit']) g[name] = withScaledTimeout(g[name], TIME_SCALE, 2);
  for (const name of ['beforeAll', 'beforeEach', 'afterAll', 'afterEach']) g[name] = withScaledTimeout(g[name], TIME_SCALE, 1);
}

// Unit specs beside the code (src/, *.spec.ts) and e2e suites in test/ (*.e2e-spec.ts).
const swc = (syntax) => [
  '@swc/jest',
  {
    jsc: {
      parser: syntax === 'typescript' ? { syntax, decorators: true } : { syntax },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

/** Packages that ship ESM only, compiled to CommonJS for the tests (Node itself loads them). */
const ESM_ONLY = '(content-disposition|any-ascii|openid-client|oauth4webapi|jose)';

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  transform: {
    '^.+\\.ts$': swc('typescript'),
    // content-disposition 3 (used by @fastify/static for /docs) ships ESM only, which Jest on
    // Node 20 cannot require; it is compiled to CommonJS for the tests. Node itself loads it fine.
    // any-ascii (SEPA names' transliteration) and openid-client with its oauth4webapi and jose 6 likewise.
    [`/node_modules/${ESM_ONLY}/.+\\.js$`]: swc('ecmascript'),
  },
  transformIgnorePatterns: [`/node_modules/(?!${ESM_ONLY}/)`],
  moduleFileExtensions: ['ts', 'js', 'json'],
  // On MariaDB (HR_TEST_INTEGRATION) every worker's database is made and migrated before the suites
  // (test/helpers/integration-setup.ts): 4.5 s idle, over 60 s in CI beside the other steps, where a
  // worker's first hook did it and timed out. Hooks and tests get twice the time there all the same.
  globalSetup: process.env.HR_TEST_INTEGRATION ? '<rootDir>/test/helpers/integration-setup.ts' : undefined,
  // HR_TEST_TIME_SCALE multiplies every hang guard on a shared machine (test/helpers/time-scale.ts):
  // this default here, the timeouts tests and hooks are given in the setup file.
  testTimeout: (process.env.HR_TEST_INTEGRATION ? 60000 : 30000) * Math.max(1, Number(process.env.HR_TEST_TIME_SCALE) || 1),
  setupFilesAfterEnv: ['<rootDir>/test/helpers/scale-timeouts.ts'],
  // Suites wait on timers, SMTP and child processes as much as on the CPU: three workers on two
  // cores ran npm test in a third of the in-band time (jest's default is cores - 1, in band here).
  maxWorkers: Number(process.env.JEST_MAX_WORKERS ?? 3),
  // A worker that ran seventy suites takes longer than jest's 500 ms to exit at the end of npm test on
  // two cores, and was killed with "A worker process has failed to exit gracefully". No handle is
  // left: process.getActiveResourcesInfo() after every suite's last afterAll held only the worker's
  // own pipes and the hook's timer, and with 15 s allowed every worker exited within 0.6 s.
  workerGracefulExitTimeout: 5000,
  // After the summary: what was skipped and what it needs (the names say, test/helpers/skip.ts).
  reporters: ['default', '<rootDir>/test/helpers/skip-reporter.js'],
};

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

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  transform: {
    '^.+\\.ts$': swc('typescript'),
    // content-disposition 3 (used by @fastify/static for /docs) ships ESM only, which Jest on
    // Node 20 cannot require; it is compiled to CommonJS for the tests. Node itself loads it fine.
    '/node_modules/content-disposition/.+\\.js$': swc('ecmascript'),
  },
  transformIgnorePatterns: ['/node_modules/(?!content-disposition/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 30000,
};

// typescript-eslint with type information: the rules that catch bugs (floating promises, misused
// promises, non-exhaustive switches, `any` in src/), and prettier for layout.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** One transaction helper (src/common/database/transaction.ts): it serializes SQLite transactions. */
const ONE_TRANSACTION = {
  selector: "CallExpression[callee.property.name='transaction']",
  message: 'Use transaction(dataSource, work) from src/common/database/transaction.ts',
};

/** "Today" is the company's day from CompanyClock (src/common/time/company-clock.ts), never UTC's slice of now. */
const TODAY_SLICE = {
  selector:
    "CallExpression[callee.property.name='slice'][callee.object.callee.property.name='toISOString'][callee.object.callee.object.type='NewExpression'][callee.object.callee.object.arguments.length=0][arguments.1.value=10]",
  message: "Today is the company's day: CompanyClock.today() (src/common/time/company-clock.ts), not a UTC slice of new Date().",
};

export default tseslint.config(
  { ignores: ['dist/**', 'coverage/**', 'node_modules/**', 'data/**', 'clients/**', '.ci/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-extraneous-class': 'off',
      'no-restricted-syntax': ['error', ONE_TRANSACTION],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', ONE_TRANSACTION, TODAY_SLICE],
    },
  },
  { files: ['src/common/database/transaction.ts'], rules: { 'no-restricted-syntax': ['error', TODAY_SLICE] } },
  // A service does one job (issue 26 for payroll, issue 42 for every module): at most 300 lines.
  { files: ['src/**/*.service.ts'], rules: { 'max-lines': ['error', { max: 300 }] } },
  {
    // Services keep the rules; SQL lives in repositories (*.repository.ts), migrations and common/
    // (docs/ARCHITECTURE.md, issue 26). A service reads through TypeORM's repository methods (find,
    // save, update, delete with find operators) or a repository of ours, never composes SQL.
    files: ['src/**/*.service.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ONE_TRANSACTION,
        TODAY_SLICE,
        {
          selector:
            'CallExpression[callee.property.name=/^(createQueryBuilder|query|getRawMany|getRawOne|innerJoin|leftJoin|innerJoinAndSelect|leftJoinAndSelect|andWhere|orWhere|addSelect|groupBy|addGroupBy|having|setParameters)$/]',
          message: 'A service composes no SQL: put the query in this module\'s repository (*.repository.ts).',
        },
        {
          selector: "CallExpression[callee.name='Raw'], NewExpression[callee.name='Brackets'], MemberExpression[object.name='DriverReader']",
          message: 'A service composes no SQL: put the query in this module\'s repository (*.repository.ts).',
        },
        {
          selector: 'Literal[value=/^\\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\\s/i], TemplateElement[value.raw=/^\\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\\s/i]',
          message: 'SQL text in a service: put the query in this module\'s repository (*.repository.ts).',
        },
        {
          // Any other statement kind, as SQL spells it (upper case: a message may begin "Create" or "Set").
          selector:
            'Literal[value=/^\\s*(REPLACE|MERGE|CREATE|ALTER|DROP|TRUNCATE|LOCK|UNLOCK|SET|CALL|PRAGMA|SAVEPOINT|RELEASE|ROLLBACK|COMMIT|BEGIN|START TRANSACTION|VACUUM|ANALYZE|EXPLAIN|SHOW|GRANT|REVOKE)\\b/], TemplateElement[value.raw=/^\\s*(REPLACE|MERGE|CREATE|ALTER|DROP|TRUNCATE|LOCK|UNLOCK|SET|CALL|PRAGMA|SAVEPOINT|RELEASE|ROLLBACK|COMMIT|BEGIN|START TRANSACTION|VACUUM|ANALYZE|EXPLAIN|SHOW|GRANT|REVOKE)\\b/]',
          message: 'SQL text in a service: put the statement in this module\'s repository (*.repository.ts).',
        },
        {
          // SQL wherever it stands in a string: a fragment (a FROM with JOINs, a condition on a
          // column with a :parameter, an EXISTS) composes a query as much as a SELECT does.
          selector:
            'Literal[value=/\\bSELECT\\b|\\bJOIN\\b|\\bEXISTS\\s*\\(|\\w\\.\\w+\\s*(=|<>|<=|>=|<|>|IN)\\s*\\(?:\\w+/], TemplateElement[value.raw=/\\bSELECT\\b|\\bJOIN\\b|\\bEXISTS\\s*\\(|\\w\\.\\w+\\s*(=|<>|<=|>=|<|>|IN)\\s*\\(?:\\w+/]',
          message: 'SQL text in a service: put the query in this module\'s repository (*.repository.ts).',
        },
      ],
    },
  },
  {
    // Layers (docs/ARCHITECTURE.md): config → common → domain modules → database/, cli, app and
    // entry points. common/ (whose files sit one folder deep) imports only common/ and config/.
    files: ['src/common/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./){2,}(?!config/)',
              message: 'common/ imports nothing from a domain module, database/ or an entry point (docs/ARCHITECTURE.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/config/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./', message: 'config/ is the bottom layer: it imports nothing of ours (docs/ARCHITECTURE.md).' }] },
      ],
    },
  },
  {
    // A module reads another module's tables through that module's exported service, never its entities.
    files: ['src/**/*.ts'],
    ignores: ['src/database/**', 'src/cli/**', 'src/common/**', 'src/config/**', '**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+[a-z-]+/entities/',
              message: "Another module's entities: go through that module's exported service (docs/ARCHITECTURE.md).",
            },
            {
              regex: '^(\\.\\./)+(database|cli)/',
              message: 'Domain modules do not import database/ or cli/ (migrations and seeds sit above them).',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests poke at JSON bodies and mocks; the bug-catching promise rules stay on.
    files: ['test/**/*.ts', 'src/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  prettier,
);

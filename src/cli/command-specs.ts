import { parseArgs, UsageError } from './args';

/**
 * What each command takes, checked before the application's modules are loaded: `hr --help` and
 * a usage mistake answer at once (docs/operations.md, "The command line").
 */
interface CommandSpec {
  options?: readonly string[];
  required?: readonly string[];
  positionals?: number;
  /** What the positionals are, for the error. */
  takes?: string;
}

export const COMMAND_SPECS: Record<string, CommandSpec> = {
  'db:migrate': {},
  'db:backup': { positionals: 1, takes: 'one file name' },
  'db:restore': { positionals: 1, takes: 'one file name' },
  'users:create-admin': { options: ['username', 'email', 'password'], required: ['username', 'email'] },
  'users:create': {
    options: ['username', 'email', 'password', 'level', 'employee', 'departments'],
    required: ['username', 'email', 'level'],
  },
  'users:reset-password': { options: ['username'], required: ['username'] },
  'tokens:issue': { options: ['username', 'ttl'], required: ['username'] },
  'scim-tokens:issue': { options: ['name'], required: ['name'] },
  'maintenance:purge': {},
  'maintenance:rebuild-insights': {},
  'leave:accrue': { options: ['history', 'employees'] },
  'settings:get': { positionals: 1, takes: 'one setting name' },
  'settings:set': { positionals: 2, takes: 'a setting name and a value' },
  demo: {},
};

export type CliCheck = { kind: 'help'; code: 0 | 2 } | { kind: 'unknown'; command: string } | { kind: 'run'; command: string };

/** What to do with argv: print the help, refuse an unknown command, or run it (its arguments checked; UsageError). */
export function checkCommand(argv: readonly string[]): CliCheck {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') return { kind: 'help', code: command ? 0 : 2 };
  const spec = Object.hasOwn(COMMAND_SPECS, command) ? COMMAND_SPECS[command] : undefined;
  if (!spec) return { kind: 'unknown', command };
  if (rest.includes('--help') || rest.includes('-h')) return { kind: 'help', code: 0 };
  const args = parseArgs(rest, spec.options ?? []);
  if (args.positionals.length !== (spec.positionals ?? 0)) {
    throw new UsageError(spec.takes ? `${command} takes ${spec.takes}` : `${command} takes no arguments`);
  }
  for (const name of spec.required ?? []) if (!args.options[name]) throw new UsageError(`--${name} is required`);
  return { kind: 'run', command };
}

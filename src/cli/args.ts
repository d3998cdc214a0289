import { parseArgs as parseNodeArgs } from 'node:util';

/** The CLI's arguments: positionals plus --name value / --name=value options, through node:util's parseArgs. */
export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string>;
}

export class UsageError extends Error {}

/** Parses `argv` allowing only the named options (each takes a value); a usage mistake is a UsageError naming it. */
export function parseArgs(argv: string[], allowed: readonly string[]): ParsedArgs {
  try {
    const { positionals, values } = parseNodeArgs({
      args: argv,
      options: Object.fromEntries(allowed.map((name) => [name, { type: 'string' as const }])),
      allowPositionals: true,
      strict: true,
    });
    return { positionals, options: values as Record<string, string> };
  } catch (err) {
    const { code, message } = err as { code?: string; message: string };
    const name = /'(-{1,2}[\w-]+)/.exec(message)?.[1] ?? 'an option';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`unknown option ${name}`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw new UsageError(`${name} needs a value`);
    throw err;
  }
}

export function required(args: ParsedArgs, name: string): string {
  const v = args.options[name];
  if (!v) throw new UsageError(`--${name} is required`);
  return v;
}

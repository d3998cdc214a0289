/** Minimal argument parser: positionals plus --name value / --name=value options. */
export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string>;
}

export class UsageError extends Error {}

export function parseArgs(argv: string[], allowed: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (!allowed.includes(name)) throw new UsageError(`unknown option --${name}`);
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || (eq === -1 && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
    options[name] = value;
  }
  return { positionals, options };
}

export function required(args: ParsedArgs, name: string): string {
  const v = args.options[name];
  if (!v) throw new UsageError(`--${name} is required`);
  return v;
}

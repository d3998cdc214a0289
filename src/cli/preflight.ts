import { UsageError } from './args';
import { checkCommand } from './command-specs';
import { USAGE } from './usage';

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Reads a secret (a password) from standard input or a prompt that does not echo it; absent when there is none. */
  secret?: (prompt: string) => Promise<string>;
}

/**
 * The part of a command that needs no application: the help, an unknown command, a usage mistake.
 * Answers the exit code when it answered, or null when the command is to run.
 */
export function preflight(argv: readonly string[], io: CliIo): number | null {
  try {
    const check = checkCommand(argv);
    if (check.kind === 'help') {
      (check.code === 0 ? io.out : io.err)(USAGE);
      return check.code;
    }
    if (check.kind === 'unknown') {
      io.err(`unknown command: ${check.command}\n\n${USAGE}`);
      return 2;
    }
    return null;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`error: ${err.message}\n\n${USAGE}`);
    return 2;
  }
}

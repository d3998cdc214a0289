#!/usr/bin/env node
import './node-check';
import { CliIo, preflight } from './cli/preflight';
import { readSecret } from './cli/read-secret';

const io: CliIo = {
  out: (l: string) => process.stdout.write(`${l}\n`),
  err: (l: string) => process.stderr.write(`${l}\n`),
  secret: (prompt) => readSecret(process.stdin, process.stderr, prompt),
};
const argv = process.argv.slice(2);

// The help and usage mistakes answer before the application's modules are loaded (seconds).
const answered = preflight(argv, io);
if (answered !== null) process.exit(answered);

void (async () => {
  await import('reflect-metadata');
  const { runCli } = await import('./cli/run-cli');
  return runCli(argv, io, process.env);
})().then(
  (code) => {
    // The demo keeps serving; every other command ends here.
    if (argv[0] !== 'demo' || code !== 0) process.exit(code);
  },
  (err: unknown) => {
    io.err(String(err));
    process.exit(1);
  },
);

#!/usr/bin/env node
import 'reflect-metadata';
import { runCli } from './cli/run-cli';

const io = { out: (l: string) => process.stdout.write(`${l}\n`), err: (l: string) => process.stderr.write(`${l}\n`) };
const argv = process.argv.slice(2);

runCli(argv, io, process.env).then(
  (code) => {
    // The demo keeps serving; every other command ends here.
    if (argv[0] !== 'demo' || code !== 0) process.exit(code);
  },
  (err: unknown) => {
    io.err(String(err));
    process.exit(1);
  },
);

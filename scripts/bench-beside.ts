/**
 * Two builds' benchmarks in one run, by hand (issue 71: "nothing else slows down"):
 *   npm run bench:beside -- --beside ../other-checkout [--benches history,leave-ledger] [--rounds 1] [-- <the benchmarks' own options>]
 * Runs each benchmark's script (`dist/scripts/bench-<name>.js`, with the node flags its npm script
 * gives it) of the other checkout (built), then of this one, `--rounds` times, with the same
 * options and environment (DATABASE_URL and REDIS_URL included: benchmarks that empty their
 * database do so for each run), and prints every line of theirs that holds a figure, this build's
 * beside the other's: lines are paired by their text without its numbers. Default benchmarks:
 * history, leave-ledger, approvals, payroll, export, import, books.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { numberArg, textArg } from './bench-tools';

const BESIDE = textArg('beside');
const BENCHES = (textArg('benches') ?? 'history,leave-ledger,approvals,payroll,export,import,books').split(',');
const ROUNDS = numberArg('rounds', 1);
/** What follows `--` goes to every benchmark. */
const PASSED = process.argv.includes('--') ? process.argv.slice(process.argv.indexOf('--') + 1) : [];
const HERE = resolve(__dirname, '..', '..');

/** The node flags a benchmark's npm script runs it with (`node --expose-gc dist/scripts/...`). */
function nodeFlags(root: string, bench: string): string[] {
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const command = scripts[`bench:${bench}`] ?? '';
  const node = command.split('&&').pop()?.trim().split(/\s+/) ?? [];
  return node.slice(1).filter((arg) => arg.startsWith('--'));
}

/** A benchmark's output lines (its JSON log lines left out). */
function run(root: string, bench: string): Promise<string[]> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [...nodeFlags(root, bench), join(root, 'dist', 'scripts', `bench-${bench}.js`), ...PASSED],
      {
        cwd: root,
        env: process.env,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', fail);
    child.on('exit', (code) => {
      const lines = out.split('\n').filter((l) => l.trim() && !l.startsWith('{'));
      if (code !== 0) lines.push(`(exited with ${code})`);
      done(lines);
    });
  });
}

/** A line's shape: its text with every number taken out. */
const shape = (line: string) =>
  line
    .replace(/[\d.,]+/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
const hasFigure = (line: string) => /\d/.test(line);

async function main(): Promise<void> {
  if (!BESIDE) throw new Error('--beside <checkout> is required: the other build (npm run build done there)');
  const other = resolve(BESIDE);
  for (const bench of BENCHES) {
    for (let round = 1; round <= ROUNDS; round++) {
      const theirs = await run(other, bench);
      const ours = await run(HERE, bench);
      console.log(`\n== bench:${bench}${ROUNDS > 1 ? `, round ${round}` : ''}: this build | ${BESIDE}`);
      const pending = new Map<string, string[]>();
      for (const line of theirs.filter(hasFigure)) pending.set(shape(line), [...(pending.get(shape(line)) ?? []), line]);
      for (const line of ours.filter(hasFigure)) {
        const match = pending.get(shape(line))?.shift();
        console.log(`  ${line.trim()}`);
        console.log(`  ${' '.repeat(4)}${match === undefined ? '(no such line)' : match.trim()}`);
      }
      const left = [...pending.values()].flat();
      for (const line of left) console.log(`  (only ${BESIDE}) ${line.trim()}`);
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

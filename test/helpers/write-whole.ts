import { renameSync, writeFileSync } from 'node:fs';

/** Writes `file` whole: into a file of this process beside it, then renamed, so other workers never read half of it. */
export function writeWhole(file: string, data: string | Buffer): void {
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, data);
  renameSync(partial, file);
}

import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `dir` (the local file store's directory), at any depth; none when it does not exist. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

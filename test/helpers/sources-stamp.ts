import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest modification time under src/: a document cached by an earlier run of other sources is not this one's. */
export const SOURCES_STAMP = (() => {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  walk(join(__dirname, '..', '..', 'src'));
  return String(newest);
})();

import { Catalogue } from '../declarations/catalogue';

/**
 * The kinds of task the service opens itself (a task's `source`: `leave-approval`, ...), declared by
 * the module whose reaction opens and completes them, beside it (`declareTaskSources` at the top of
 * its `*.reactions.ts`). The tasks subscriber opens or completes tasks of declared sources only and
 * logs any other as the bug it is; `manual` is an Admin's task.
 */
const sources = new Catalogue<true>('task source');

export function declareTaskSources(...names: string[]): void {
  for (const name of names) {
    if (name === 'manual') throw new Error("'manual' is the Admins' task source; a module declares its own");
    sources.declare(name, true);
  }
}

export function isTaskSource(name: string): boolean {
  return sources.has(name);
}

/** Every declared task source, in name order. */
export function taskSources(): string[] {
  return [...sources.names];
}

/**
 * V8 CPU profiles for the benchmarks: where a profile's self time goes, by place (a package, one of
 * our modules, Node's own) and by function, as shares of the busy time; and a profile of this very
 * process while a part of a benchmark runs (`profiled`), for those that run the service in-process.
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a package of node_modules, one of our modules, Node's own, or native. */
function placeOf(url: string, name: string): string {
  const path = url.replace(/^file:\/\//, '');
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (inModules) return inModules[1];
  const ours = /\/dist\/(src\/[^/]+(?:\/[^/]+)?)/.exec(path);
  if (ours) return ours[1].replace(/\.js$/, '');
  if (path.startsWith('node:')) return path.split('/')[0];
  return name || '(native)';
}

/** Prints the `top` places and functions by self time. */
export function report(profile: Profile, top: number): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  for (const [id, micros] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    busy += micros;
    const place = placeOf(url, functionName);
    byPlace.set(place, (byPlace.get(place) ?? 0) + micros);
    const fn = `${functionName || '(anonymous)'} ${url ? `${place}:${lineNumber + 1}` : '(native)'}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros);
  }
  const print = (title: string, rows: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [name, micros] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`${((100 * micros) / busy).toFixed(1).padStart(6)} %  ${name}`);
  };
  console.log(`\nbusy ${Math.round(busy / 1000)} ms of the profile`);
  print('self time by place (share of busy time)', byPlace);
  print('self time by function', byFunction);
}

/**
 * Runs `fn` under the inspector's CPU profiler of this process (100 µs samples) when `out` is a
 * path: writes the profile there (for Chrome DevTools) and prints its `top` places and functions.
 */
export async function profiled<T>(out: string | undefined, top: number, fn: () => Promise<T>): Promise<T> {
  if (!out) return fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
    session.disconnect();
    writeFileSync(out, JSON.stringify(profile));
    report(profile, top);
  }
}

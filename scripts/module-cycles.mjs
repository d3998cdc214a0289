#!/usr/bin/env node
// Refuses import cycles between the modules of src/ (each folder under src/ is a module; the files
// directly in src/ are the composition root), and any import of a producing module by a subscriber
// of the outbox (notifications, tasks: what an event does is declared by the module that owns it,
// in its <module>.reactions.ts), and folders of one module importing each other both ways (its
// root folder counts as one; its <module>.module.ts, the module's composition, does not), and a
// module importing a file of another that the other does not declare public (its public.json). Run
// by `npm run lint`; docs/ARCHITECTURE.md explains why.
//
//   node scripts/module-cycles.mjs [srcDir] [--module dir]...   exit 1 and list each cycle (a file per
//   edge) and each forbidden import; --module: a module kept outside srcDir whose imports of srcDir's
//   modules are held to what they declare public (test/fixtures/kudos)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts')) yield path;
  }
}

/** The module of a path under srcDir: its first folder, or null for the composition root. */
function moduleOf(srcDir, path) {
  const parts = relative(srcDir, path).split(sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : null;
}

/** module → module → one file that makes the edge. */
export function moduleGraph(srcDir) {
  const graph = new Map();
  for (const file of sourceFiles(srcDir)) {
    const from = moduleOf(srcDir, file);
    if (!from) continue;
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = moduleOf(srcDir, resolve(dirname(file), spec));
      if (!to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from).has(to)) graph.get(from).set(to, relative(srcDir, file));
    }
  }
  return graph;
}

/**
 * The outbox's subscribers, and the platform they stand on: a subscriber imports no module but these,
 * so every other module (those whose events it handles, and any module added later) is out of its
 * reach without being listed here.
 */
export const SUBSCRIBERS = ['notifications', 'tasks'];
export const PLATFORM = ['common', 'config', 'settings', 'users', 'mail'];

/** [subscriber, module, file] for every import by a subscriber of a module beyond the platform. */
export function forbiddenImports(graph) {
  const out = [];
  for (const from of SUBSCRIBERS)
    for (const [to, file] of graph.get(from) ?? [])
      if (!PLATFORM.includes(to) && !SUBSCRIBERS.includes(to)) out.push([from, to, file]);
  return out;
}

/** The strongly connected groups of more than one module (Tarjan), each sorted. */
export function moduleCycles(graph) {
  let index = 0;
  const order = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const visit = (v) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), order.get(w)));
    }
    if (low.get(v) !== order.get(v)) return;
    const group = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!order.has(v)) visit(v);
  return groups;
}

/**
 * What a module lets other modules import: the paths in `src/<module>/public.json` ("public": a file
 * of the module without its extension, a folder as "dto/", or "**" for all), and always its
 * `<module>.module.ts`. A module without the file declares nothing public.
 */
export function publicSurface(srcDir, module) {
  const file = join(srcDir, module, 'public.json');
  const declared = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).public ?? []) : [];
  const patterns = [...declared, `${module}.module`];
  return (path) => patterns.some((p) => p === '**' || p === path || (p.endsWith('/') && path.startsWith(p)));
}

/**
 * [file, module, path] for every import of another module's file that module does not declare
 * public; `outside`: folders of modules kept elsewhere (the test fixture), each checked as one.
 */
export function privateImports(srcDir, outside = []) {
  const surfaces = new Map();
  const out = [];
  const files = [
    ...[...sourceFiles(srcDir)].map((file) => [file, moduleOf(srcDir, file), relative(srcDir, file)]),
    ...outside.flatMap((dir) => [...sourceFiles(dir)].map((file) => [file, basename(dir), relative(process.cwd(), file)])),
  ];
  for (const [file, from, shown] of files) {
    if (!from) continue;
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(dirname(file), spec);
      const to = moduleOf(srcDir, target);
      if (!to || to === from) continue;
      if (!surfaces.has(to)) surfaces.set(to, publicSurface(srcDir, to));
      const path = relative(join(srcDir, to), target)
        .split(sep)
        .join('/')
        .replace(/\.(ts|js)$/, '');
      if (!surfaces.get(to)(path)) out.push([shown, to, path]);
    }
  }
  return out;
}

/** The folder of a file inside its module: its first sub-folder, or `.` for the module's root. */
function folderOf(srcDir, path) {
  const parts = relative(srcDir, path).split(sep);
  return parts.length > 2 ? parts[1] : '.';
}

/** Every `module:a<->b` (a < b) whose folders import each other, with a file for each way. */
export function twoWayFolders(srcDir) {
  const edges = new Map();
  for (const file of sourceFiles(srcDir)) {
    const module = moduleOf(srcDir, file);
    if (!module) continue;
    const parts = relative(srcDir, file).split(sep);
    if (parts.length === 2 && parts[1] === `${module}.module.ts`) continue;
    const from = folderOf(srcDir, file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = resolve(dirname(file), spec);
      if (moduleOf(srcDir, target) !== module) continue;
      const to = folderOf(srcDir, target);
      const key = `${module}:${from}->${to}`;
      if (to !== from && !edges.has(key)) edges.set(key, relative(srcDir, file));
    }
  }
  const pairs = [];
  for (const [key, file] of edges) {
    const [module, way] = key.split(':');
    const [a, b] = way.split('->');
    const back = edges.get(`${module}:${b}->${a}`);
    if (back && a < b) pairs.push([`${module}:${a}<->${b}`, file, back]);
  }
  return pairs.sort((x, y) => x[0].localeCompare(y[0]));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const outside = args.flatMap((a, i) => (args[i - 1] === '--module' ? [resolve(a)] : []));
  const srcDir = resolve(args.find((a, i) => a !== '--module' && args[i - 1] !== '--module') ?? 'src');
  const graph = moduleGraph(srcDir);
  const cycles = moduleCycles(graph);
  for (const group of cycles) {
    console.error(`import cycle between modules: ${group.join(', ')}`);
    for (const from of group)
      for (const [to, file] of graph.get(from) ?? []) if (group.includes(to)) console.error(`  ${from} -> ${to} (${file})`);
  }
  const forbidden = forbiddenImports(graph);
  for (const [from, to, file] of forbidden)
    console.error(
      `${from} imports ${to} (${file}): a subscriber of the outbox imports no module beyond ${PLATFORM.join(', ')}; declare the reaction in ${to}/${to}.reactions.ts`,
    );
  const twoWay = twoWayFolders(srcDir);
  for (const [pair, one, other] of twoWay)
    console.error(
      `folders importing each other both ways: ${pair} (${one}; ${other}): shared types go down a layer (docs/ARCHITECTURE.md, "Folders")`,
    );
  const hidden = privateImports(srcDir, outside);
  for (const [file, to, path] of hidden)
    console.error(
      `${file} imports ${to}/${path}, which ${to} does not declare public: import what ${to}/public.json lists, or list it there (docs/ARCHITECTURE.md, "Adding a module")`,
    );
  if (cycles.length || forbidden.length || twoWay.length || hidden.length) process.exit(1);
  console.log(`no import cycle between the ${graph.size} modules of ${relative(process.cwd(), srcDir) || '.'}`);
}

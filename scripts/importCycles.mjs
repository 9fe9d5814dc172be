// Fails (exit 1) when the TypeScript sources import each other in a cycle, naming each cycle's
// files. Only imports that stay in the built code count: `import type` and imports of types only
// are erased by the compiler, so they order nothing at run time. Part of `npm run lint`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOTS = ['server/src', 'shared', 'client/src', 'webview/src'];
const root = resolve(new URL('..', import.meta.url).pathname);

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

// `import … from './x'` / `export … from './x'`, relative specifiers only (packages cannot cycle back).
const IMPORT = /^\s*(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

function valueImports(file) {
  const out = new Set();
  for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    if (m[1]) continue;
    const names = /^\{([^}]*)\}$/.exec(m[2].trim());
    if (names) {
      const list = names[1]
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (list.length > 0 && list.every((n) => n.startsWith('type '))) continue;
    }
    const target = resolve(dirname(file), m[3]);
    if (existsSync(`${target}.ts`)) out.add(`${target}.ts`);
    else if (existsSync(join(target, 'index.ts'))) out.add(join(target, 'index.ts'));
  }
  return [...out];
}

const files = ROOTS.flatMap((r) => (existsSync(join(root, r)) ? sources(join(root, r)) : []));
const graph = new Map(files.map((f) => [f, valueImports(f)]));

// Tarjan's strongly connected components: each component of more than one file is a cycle.
let next = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
function visit(v) {
  index.set(v, next);
  low.set(v, next);
  next++;
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!graph.has(w)) continue;
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) !== index.get(v)) return;
  const component = [];
  let w;
  do {
    w = stack.pop();
    onStack.delete(w);
    component.push(w);
  } while (w !== v);
  if (component.length > 1 || graph.get(v).includes(v)) cycles.push(component);
}
for (const f of graph.keys()) if (!index.has(f)) visit(f);

for (const c of cycles)
  console.error(
    `import cycle: ${c
      .map((f) => relative(root, f))
      .sort()
      .join(' <-> ')}`,
  );
if (cycles.length > 0) {
  console.error(`${cycles.length} import cycle(s) among ${files.length} files: move what both sides need into a module of its own.`);
  process.exit(1);
}

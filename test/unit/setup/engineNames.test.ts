// Each name the engine exports is defined in one module: two modules that export the same name
// (three `keyText`s, two `STATUSES` of different contents) make an import say less than it seems to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '../../shared/repoRoot';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

test('every name exported by server/src/core is defined by one module', () => {
  const core = join(repoRoot(), 'server/src/core');
  const definedIn = new Map<string, string[]>();
  for (const file of sources(core)) {
    for (const m of readFileSync(file, 'utf8').matchAll(
      /^export (?:declare )?(?:async )?(?:abstract )?(?:function\*?|const|let|class|interface|type|enum) ([A-Za-z0-9_$]+)/gm,
    )) {
      const list = definedIn.get(m[1]) ?? [];
      list.push(relative(core, file));
      definedIn.set(m[1], list);
    }
  }
  assert.ok(definedIn.size > 500, `the engine's exports were read (${definedIn.size})`);
  const twice = [...definedIn].filter(([, files]) => files.length > 1).map(([name, files]) => `${name}: ${files.join(', ')}`);
  assert.deepEqual(twice, []);
});

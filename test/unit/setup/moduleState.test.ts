// The engine keeps no mutable state at module level (docs/architecture.md, "Module state"):
// scripts/moduleState.mjs, run by `npm run lint`, refuses it except what it lists with a reason.
// Here: what it counts as state, and that the engine passes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../shared/repoRoot';

interface ModuleStateCheck {
  stateOf(line: string): string | null;
  moduleStateProblems(engine?: string): string[];
  ALLOWED: Map<string, string>;
}

async function check(): Promise<ModuleStateCheck> {
  // A path, not a literal: the check is plain JavaScript, run by lint.
  return (await import(pathToFileURL(join(repoRoot(), 'scripts/moduleState.mjs')).href)) as ModuleStateCheck;
}

test('module state: a let, a var, an instance, an empty array or a camelCase literal is state', async () => {
  const { stateOf } = await check();
  for (const line of [
    'let pos = 0;',
    'export let count = 0;',
    'var seen;',
    'let decoded = new Uint8Array(0);',
    'const stack = new Uint8Array(256);',
    'const streams = new Map<number, DeflateStream>();',
    'const pair = new Uint32Array(2);',
    'const spare: Uint8Array[] = [];',
    'const memo = {};',
    'const switches = { enabled: true };',
  ])
    assert.notEqual(stateOf(line), null, line);
});

test('module state: constants, stateless codecs, readonly sets and indented lines are not', async () => {
  const { stateOf } = await check();
  for (const line of [
    'const MAX_TEXT = 200;',
    "const utf8 = new TextDecoder('utf-8');",
    'const encoder = new TextEncoder();',
    "const STATUS_SET: ReadonlySet<string> = new Set<string>(['a']);",
    "const NAMES: readonly string[] = ['a', 'b'];",
    "const ESCAPED: Record<number, string> = { 0x22: '\"' };",
    "const KINDS = ['a', 'b'] as const;",
    '  let i = 0;',
    '    const out = new Uint8Array(n);',
    'export function f(): void {}',
  ])
    assert.equal(stateOf(line), null, line);
});

test('module state: the engine has none but what the list allows, each with a reason', async () => {
  const { moduleStateProblems, ALLOWED } = await check();
  assert.deepEqual(moduleStateProblems(), []);
  for (const [key, reason] of ALLOWED) assert.ok(reason.length > 10, `${key}: a reason`);
});

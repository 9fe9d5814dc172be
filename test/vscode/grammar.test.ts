// The TextMate injection (syntaxes/) tokenised by the engine VS Code itself uses (vscode-textmate
// and vscode-oniguruma as shipped in code-server 1.139) on top of VS Code's built-in JSON Lines
// grammar, exactly as the manifest's `injectTo` wires it.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { before, test } from 'node:test';
import { repoRoot } from './harness';

const INJECTION = 'rollout-lens.jsonl-injection';
const JSONL = 'source.json.lines';

interface Token {
  startIndex: number;
  endIndex: number;
  scopes: string[];
}
interface Grammar {
  tokenizeLine(line: string, stack: unknown): { tokens: Token[]; ruleStack: unknown };
}

let grammar: Grammar;
let initialStack: unknown;

before(async () => {
  const { ensureHost } = await import(join(repoRoot, 'test/vscode/host/install.mjs'));
  const host = ensureHost() as { codeServerEntry: string };
  const vscodeDir = join(dirname(host.codeServerEntry), '../../lib/vscode');
  const req = createRequire(join(vscodeDir, 'package.json'));
  const tm = req('vscode-textmate');
  const onig = req('vscode-oniguruma');
  const wasm = readFileSync(join(vscodeDir, 'node_modules/vscode-oniguruma/release/onig.wasm'));
  await onig.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const contributed = manifest.contributes.grammars.find((g: { scopeName: string }) => g.scopeName === INJECTION);
  assert.deepEqual(contributed.injectTo, [JSONL]);
  const files: Record<string, string> = {
    [JSONL]: join(vscodeDir, 'extensions/json/syntaxes/JSONL.tmLanguage.json'),
    [INJECTION]: join(repoRoot, contributed.path),
  };
  const registry = new tm.Registry({
    onigLib: Promise.resolve({ createOnigScanner: (p: string[]) => new onig.OnigScanner(p), createOnigString: (s: string) => new onig.OnigString(s) }),
    loadGrammar: async (scope: string) => (files[scope] ? tm.parseRawGrammar(readFileSync(files[scope], 'utf8'), files[scope]) : null),
    getInjections: (scope: string) => (scope === JSONL ? [INJECTION] : undefined),
  });
  grammar = await registry.loadGrammar(JSONL);
  initialStack = tm.INITIAL;
});

/** `text → innermost scopes` for each token of one line. */
function tokens(line: string): [string, string[]][] {
  return grammar.tokenizeLine(line, initialStack).tokens.map((t) => [line.slice(t.startIndex, t.endIndex), t.scopes]);
}
function scopesOf(line: string, text: string): string[] {
  const hit = tokens(line).find(([t]) => t === text);
  assert.ok(hit, `no token ${JSON.stringify(text)} in ${JSON.stringify(tokens(line).map(([t]) => t))}`);
  return hit[1];
}

test('grammar: status values "aborted"/"failed" stand out, "completed" stays a plain string', () => {
  const line = '{"status": "aborted", "reward": null, "other": "failed", "done": "completed"}';
  assert.ok(scopesOf(line, 'aborted').includes('invalid.illegal.status.aborted.rollout-lens'));
  assert.ok(scopesOf(line, 'failed').includes('invalid.illegal.status.aborted.rollout-lens'));
  assert.ok(scopesOf(line, 'completed').every((s) => !s.includes('rollout-lens')));
  assert.ok(scopesOf(line, 'aborted').includes('string.quoted.double.json.lines'), 'still a JSON string');
});

test('grammar: "truncated" and policy causes (docs/semantics.md#failure-causes) get the policy scope; infrastructure causes the infra scope', () => {
  const line = '{"status": "truncated", "metadata": {"exit_status": "TimeLimitExceeded"}, "x": ["ServerUnreachable", "SandboxUnavailable"]}';
  assert.ok(scopesOf(line, 'truncated').includes('keyword.control.status.truncated.rollout-lens'));
  assert.ok(scopesOf(line, 'TimeLimitExceeded').includes('keyword.control.cause.policy.rollout-lens'));
  assert.ok(scopesOf(line, 'ServerUnreachable').includes('invalid.illegal.cause.infrastructure.rollout-lens'));
  assert.ok(scopesOf(line, 'SandboxUnavailable').includes('invalid.illegal.cause.infrastructure.rollout-lens'));
});

test('grammar: cause and exception names inside error text (litellm APIConnectionError → ServerUnreachable)', () => {
  const line = '{"error": "litellm.APIConnectionError: model service down (ServerUnreachable)"}';
  assert.ok(scopesOf(line, 'APIConnectionError').includes('invalid.illegal.cause.infrastructure.rollout-lens'));
  assert.ok(scopesOf(line, 'ServerUnreachable').includes('invalid.illegal.cause.infrastructure.rollout-lens'));
});

test('grammar: escaped quotes in model text cannot end a string early or fake a status', () => {
  const line = '{"response": "I said \\"failed", "status": "completed", "reward": 1.0}';
  const toks = tokens(line);
  const statusKey = toks.find(([t, s]) => t === 'status' && s.some((x) => x.startsWith('support.type.property-name')));
  assert.ok(statusKey, `"status" is still a key: ${JSON.stringify(toks.map(([t, s]) => [t, s[s.length - 1]]))}`);
  assert.ok(
    toks.every(([, s]) => !s.some((x) => x.includes('status.aborted.rollout-lens'))),
    'no fake status',
  );
  assert.ok(
    toks.every(([, s]) => !s.some((x) => x.startsWith('invalid.illegal.expected'))),
    'no separator errors',
  );
});

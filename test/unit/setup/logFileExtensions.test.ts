// The log-file and dump extensions are listed once (shared/logFiles.ts); the manifest cannot import
// them, so its activation events and menu conditions must spell the same list, and every module
// that decides by a file's extension must ask that one (no regular expression of its own).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LOG_FILE_EXTENSIONS, PT_DUMP_EXTENSIONS } from '../../../shared/logFiles';
import { repoRoot } from '../../shared/repoRoot';

const manifest = JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8'));

test('manifest: a workspace with a log of each extension activates the extension', () => {
  const contains = (manifest.activationEvents as string[]).filter((e) => e.startsWith('workspaceContains:')).map((e) => e.slice('workspaceContains:'.length));
  assert.deepEqual(
    contains,
    LOG_FILE_EXTENSIONS.map((e) => `**/*.${e}`),
  );
});

test('manifest: each menu condition on a file extension names exactly the logs or exactly the dumps', () => {
  const whens = Object.values(manifest.contributes.menus as Record<string, { when?: string }[]>)
    .flat()
    .map((m) => m.when ?? '')
    .filter((w) => w.includes('resourceExtname'));
  assert.ok(whens.length >= 4, `menu conditions found (${whens.length})`);
  for (const when of whens) {
    const named = [...when.matchAll(/resourceExtname == \.(\w+)/g)].map((m) => m[1]);
    assert.ok(
      JSON.stringify(named) === JSON.stringify(LOG_FILE_EXTENSIONS) || JSON.stringify(named) === JSON.stringify(PT_DUMP_EXTENSIONS),
      `"${when}" names ${named.join(', ')}: shared/logFiles.ts lists logs ${LOG_FILE_EXTENSIONS.join(', ')} and dumps ${PT_DUMP_EXTENSIONS.join(', ')}`,
    );
  }
});

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

test('no module but shared/logFiles.ts spells the extensions in a regular expression', () => {
  const root = repoRoot();
  // A regex literal or RegExp source ending in one of the extensions: `\.jsonl$`, `\.(?:pt|pth)`.
  const all = [...LOG_FILE_EXTENSIONS, ...PT_DUMP_EXTENSIONS].join('|');
  const spelt = new RegExp(`\\\\\\.\\(?(?:\\?:)?(?:${all})\\b[^/\\n]*\\$`);
  // miles' own layout names one file of a dump folder by its full path, not a log by its extension.
  const layouts = new Set(['server/src/core/rollout/trajectorySidecar.ts', 'server/src/core/train/sampleMismatch.ts']);
  const found = ['server/src', 'shared', 'client/src', 'webview/src']
    .flatMap((d) => sources(join(root, d)))
    .map((f) => relative(root, f))
    .filter((f) => f !== 'shared/logFiles.ts' && !layouts.has(f) && spelt.test(readFileSync(join(root, f), 'utf8')));
  assert.deepEqual(found, []);
});

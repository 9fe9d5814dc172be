// `npm run test:quick`, the loop while developing: lint, then the unit and in-process LSP rings,
// with nothing installed from the system (no Debian package, no code-server under .cache/).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// out/test/unit/setup -> repository root
const root = join(__dirname, '../../../..');
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The rings a script passes to test/run.mjs; null when it does not run it. */
function ringsOf(script: string): string[] | null {
  const m = /node test\/run\.mjs((?: [a-z]+)*)\s*$/.exec(script);
  return m ? m[1].trim().split(' ').filter(Boolean) : null;
}

test('test:quick lints, then runs exactly the unit and lsp rings', () => {
  const quick = scripts['test:quick'];
  assert.ok(quick, 'package.json has a test:quick script');
  assert.match(quick, /^npm run --silent lint && /);
  assert.deepEqual(ringsOf(quick), ['unit', 'lsp']);
});

test('test:quick needs no Debian package and no editor ring; npm test stays every ring', async () => {
  const system = (await import(pathToFileURL(join(root, 'test/setup/system.mjs')).href)) as { packagesFor(rings: string[]): string[] };
  const rings = ringsOf(scripts['test:quick']) ?? [];
  assert.deepEqual(system.packagesFor(rings), []);
  // code-server is provisioned by the vscode ring alone (test/vscode/host/install.mjs).
  assert.ok(!rings.includes('vscode'));
  assert.deepEqual(ringsOf(scripts.test), [], 'npm test passes no ring: lint and all rings');
});

// `npm test` installs or names the Debian packages its rings need before any test runs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Plan {
  action: 'none' | 'install' | 'stop';
  commands?: [string, string[]][];
  message?: string;
}
interface SystemModule {
  RING_PACKAGES: Record<string, string[]>;
  packagesFor(rings: string[]): string[];
  setupPlan(input: { missing: string[]; isRoot: boolean; hasApt: boolean }): Plan;
}

// out/test/unit/setup -> repository root
const root = join(__dirname, '../../../..');
const load = (): Promise<SystemModule> => import(pathToFileURL(join(root, 'test/setup/system.mjs')).href);

test('each editor ring names the packages it drives; rings without editors need none', async () => {
  const m = await load();
  assert.deepEqual(m.packagesFor(['unit', 'lsp', 'stdio']), []);
  assert.deepEqual(m.packagesFor(['nvim']), ['neovim']);
  assert.deepEqual(m.packagesFor(['vscode']), ['chromium', 'libkrb5-dev']);
  assert.deepEqual(m.packagesFor(['nvim', 'vscode', 'nvim']), ['chromium', 'libkrb5-dev', 'neovim']);
});

test('nothing missing: nothing to do, whoever runs it', async () => {
  const m = await load();
  assert.deepEqual(m.setupPlan({ missing: [], isRoot: false, hasApt: false }), { action: 'none' });
});

test('root with apt-get: update once, then install exactly the missing packages', async () => {
  const m = await load();
  const plan = m.setupPlan({ missing: ['chromium', 'neovim'], isRoot: true, hasApt: true });
  assert.equal(plan.action, 'install');
  assert.deepEqual(plan.commands, [
    ['apt-get', ['update', '-qq']],
    ['apt-get', ['install', '-y', '-qq', 'chromium', 'neovim']],
  ]);
});

test('not root: stop at once with the exact command to run', async () => {
  const m = await load();
  const plan = m.setupPlan({ missing: ['libkrb5-dev'], isRoot: false, hasApt: true });
  assert.equal(plan.action, 'stop');
  assert.equal(plan.message, 'npm test needs libkrb5-dev, which is not installed. Run:\n  sudo apt-get update && sudo apt-get install -y libkrb5-dev');
});

test('no apt-get at all: stop and name the packages', async () => {
  const m = await load();
  const plan = m.setupPlan({ missing: ['neovim', 'chromium'], isRoot: true, hasApt: false });
  assert.equal(plan.action, 'stop');
  assert.match(plan.message ?? '', /neovim chromium$/);
});

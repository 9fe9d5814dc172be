// A settings file is read whole through FileAccess as UTF-8, as every small file the engine reads
// (core/fileText.ts): a byte-order mark that Windows editors write is not part of the text, so a
// JSON settings file that starts with one still parses; a folder or a file too large to be a
// settings file is an error naming the path and why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadGateSection, loadSettingsFile, SettingsFileError } from '../../../server/src/core/locate/settingsFile';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';

const BOM = '\ufeff';

function withDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rl-settings-'));
  return body(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

test('a settings file that starts with a byte-order mark is read as its text (JSON and YAML)', () =>
  withDir(async (dir) => {
    writeFileSync(join(dir, 'rollout-lens.json'), `${BOM}{"nSamplesPerPrompt": 4}`);
    writeFileSync(join(dir, 'rollout-lens.yaml'), `${BOM}nSamplesPerPrompt: 8\ngate:\n  dropRateIncrease: 2\n`);
    assert.equal((await loadSettingsFile(join(dir, 'rollout-lens.json'), nodeFileAccess)).nSamplesPerPrompt, 4);
    assert.equal((await loadSettingsFile(join(dir, 'rollout-lens.yaml'), nodeFileAccess)).nSamplesPerPrompt, 8);
    assert.equal((await loadGateSection(join(dir, 'rollout-lens.yaml'), nodeFileAccess))?.dropRateIncrease, 2);
  }));

test('a folder, a missing file or an oversized file is a SettingsFileError naming the path and why', () =>
  withDir(async (dir) => {
    mkdirSync(join(dir, 'folder.yaml'));
    writeFileSync(join(dir, 'big.yaml'), `# ${'x'.repeat(2 * 1024 * 1024)}\n`);
    const cases: [string, RegExp][] = [
      ['folder.yaml', /^cannot read: not a file$/],
      ['missing.yaml', /^cannot read: ENOENT$/],
      ['big.yaml', /^cannot read: \d+ bytes; a settings file is at most \d+$/],
    ];
    for (const [name, reason] of cases) {
      await assert.rejects(loadSettingsFile(join(dir, name), nodeFileAccess), (err: unknown) => {
        assert.ok(err instanceof SettingsFileError, name);
        assert.equal(err.path, join(dir, name));
        assert.match(err.reason, reason, name);
        return true;
      });
    }
  }));

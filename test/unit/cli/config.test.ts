import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { runCli, tempDir } from './run';

/** The drop metrics of a file's metrics (miles-sample files also carry the per-sample metrics miles logs). */
function drops(m: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(m).filter(([k]) => k.startsWith('rollout/dynamic_filter/')));
}

/** Two groups of two: one with rewards [1.0, 1.0] (zero std), one [1.0, 0.0]. */
function log(dir: string): string {
  const line = (g: number, i: number, r: string) =>
    `{"group_index": ${g}, "index": ${i}, "prompt": "p${g}", "response": "r", "status": "completed", "reward": ${r}}`;
  const path = join(dir, 'rollout_1.jsonl');
  writeFileSync(path, [line(0, 0, '1.0'), line(0, 1, '1.0'), line(1, 2, '1.0'), line(1, 3, '0.0')].join('\n') + '\n');
  return path;
}

function dropMetrics(stdout: string): Record<string, number> {
  return drops(JSON.parse(stdout).files[0].metrics);
}

test('cli --config YAML: settings keys apply (dynamicFilter check_reward_nonzero_std → zero_std_1.0 metric)', (t) => {
  const dir = tempDir(t);
  const path = log(dir);
  writeFileSync(join(dir, 'settings.yaml'), '# run settings\ndynamicFilter: check_reward_nonzero_std\nnSamplesPerPrompt: 2\n');
  const r = runCli(['check', '--format', 'json', '--config', join(dir, 'settings.yaml'), path]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(dropMetrics(r.stdout), { 'rollout/dynamic_filter/drop_zero_std_1.0': 1 });
});

test('cli --config JSON with editor-style keys (rolloutLens.dynamicFilter) and a nested rolloutLens mapping', (t) => {
  const dir = tempDir(t);
  const path = log(dir);
  writeFileSync(join(dir, 'a.json'), '{"rolloutLens.dynamicFilter": "check_reward_nonzero_std"}');
  writeFileSync(join(dir, 'b.json'), '{"rolloutLens": {"dynamicFilter": "check_reward_nonzero_std"}}');
  for (const f of ['a.json', 'b.json']) {
    const r = runCli(['check', '--format', 'json', '--config', join(dir, f), path]);
    assert.deepEqual(dropMetrics(r.stdout), { 'rollout/dynamic_filter/drop_zero_std_1.0': 1 }, f);
  }
});

test('cli: flags override --config', (t) => {
  const dir = tempDir(t);
  const path = log(dir);
  writeFileSync(join(dir, 's.yaml'), 'dynamicFilter: check_reward_nonzero_std\n');
  const r = runCli(['check', '--format', 'json', '--config', join(dir, 's.yaml'), '--dynamic-filter', 'none', path]);
  assert.deepEqual(dropMetrics(r.stdout), {});
});

test('cli --config errors are usage errors (exit 2) naming the file, the key and what was expected', (t) => {
  const dir = tempDir(t);
  const path = log(dir);
  const cases: [string, string, RegExp][] = [
    ['unknown.yaml', 'rewardKeys: acc\n', /unknown setting "rewardKeys"/],
    ['type.yaml', 'nSamplesPerPrompt: four\n', /nSamplesPerPrompt: expected number, received string/],
    ['enum.json', '{"dynamicFilter": "std"}', /dynamicFilter: expected one of "none"\|"check_reward_nonzero_std"/],
    ['pointer.yaml', 'fields:\n  groupKey: meta.group\n', /fields\.groupKey: must be a JSON pointer such as \/meta\/group/],
    ['broken.yaml', 'a: [1, 2\n', /not valid YAML or JSON/],
  ];
  for (const [name, text, reason] of cases) {
    writeFileSync(join(dir, name), text);
    const r = runCli(['check', '--config', join(dir, name), path]);
    assert.equal(r.status, 2, name);
    assert.match(r.stderr, new RegExp(`--config .*${name}: `));
    assert.match(r.stderr, reason, name);
  }
  const missing = runCli(['check', '--config', join(dir, 'none.yaml'), path]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /--config .*none\.yaml: cannot read: ENOENT/);
});

test('cli --eval-config that cannot be read is a usage error (exit 2)', (t) => {
  const dir = tempDir(t);
  const r = runCli(['check', '--eval-config', join(dir, 'nope.yaml'), log(dir)]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /eval config: .*nope\.yaml/);
});

test('cli without --config: each log takes the rollout-lens.yaml nearest above its folder', (t) => {
  const dir = tempDir(t);
  // runs/rollout-lens.yaml applies to runs/a; runs/b has its own, which wins there.
  mkdirSync(join(dir, 'runs/a/rollout'), { recursive: true });
  mkdirSync(join(dir, 'runs/b/rollout'), { recursive: true });
  writeFileSync(join(dir, 'runs/rollout-lens.yaml'), 'dynamicFilter: check_reward_nonzero_std\n');
  writeFileSync(join(dir, 'runs/b/rollout-lens.json'), '{"dynamicFilter": "none"}');
  renameSync(log(dir), join(dir, 'runs/a/rollout/rollout_1.jsonl'));
  renameSync(log(dir), join(dir, 'runs/b/rollout/rollout_1.jsonl'));
  const r = runCli(['check', '--format', 'json', 'runs'], dir);
  assert.equal(r.status, 0, r.stderr);
  const files = JSON.parse(r.stdout).files as { path: string; metrics: Record<string, number> }[];
  assert.deepEqual(
    files.map((f) => [f.path, drops(f.metrics)]),
    [
      ['runs/a/rollout/rollout_1.jsonl', { 'rollout/dynamic_filter/drop_zero_std_1.0': 1 }],
      ['runs/b/rollout/rollout_1.jsonl', {}],
    ],
  );
  // --config replaces the search for every file.
  writeFileSync(join(dir, 'none.yaml'), 'dynamicFilter: none\n');
  const given = runCli(['check', '--format', 'json', '--config', 'none.yaml', 'runs'], dir);
  assert.deepEqual(
    (JSON.parse(given.stdout).files as { metrics: Record<string, number> }[]).map((f) => drops(f.metrics)),
    [{}, {}],
  );
});

test('cli without --config: a bad rollout-lens.yaml found for a log is a usage error naming it', (t) => {
  const dir = tempDir(t);
  const path = log(dir);
  writeFileSync(join(dir, 'rollout-lens.yaml'), 'nSamplesPerPrompt: four\n');
  const r = runCli(['check', path]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /rollout-lens\.yaml: nSamplesPerPrompt: expected number, received string/);
});

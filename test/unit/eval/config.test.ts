import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEvalConfig, parseEvalConfig } from '../../../server/src/core/eval/config';
import { nodeFileAccess as disk } from '../../../server/src/node/nodeFileAccess';

const LIST_YAML = `# miles eval config
eval:
  defaults:
    n_samples_per_eval_prompt: 2   # most datasets
    temperature: 0.6
  datasets:
    - name: aime
      path: /data/aime.jsonl
      n_samples_per_eval_prompt: 16
    - name: gpqa
      path: /data/gpqa.jsonl
`;

test('eval config, YAML list shape under eval: defaults, datasets in order, lines of entries and of n', () => {
  const c = parseEvalConfig(LIST_YAML, 'eval_config.yaml');
  assert.deepEqual(c, {
    path: 'eval_config.yaml',
    defaults: { nSamplesPerEvalPrompt: 2, nLine: 4 },
    datasets: [
      { name: 'aime', nSamplesPerEvalPrompt: 16, line: 7, nLine: 9, overriddenNames: { dataset: null, datasetName: null } },
      { name: 'gpqa', nSamplesPerEvalPrompt: null, line: 10, nLine: null, overriddenNames: { dataset: null, datasetName: null } },
    ],
  });
});

test('eval config, mapping shape name → config, as the inner mapping (no eval: root)', () => {
  const c = parseEvalConfig('datasets:\n  aime:\n    n_samples_per_eval_prompt: 4\n  gpqa:\n  swe: {path: x, name: swe-verified}\n', 'c.yml');
  assert.deepEqual(
    c.datasets.map((d) => [d.name, d.nSamplesPerEvalPrompt, d.line, d.nLine]),
    [
      ['aime', 4, 2, 3],
      ['gpqa', null, 4, null],
      ['swe-verified', null, 5, null],
    ],
  );
  assert.deepEqual(c.defaults, { nSamplesPerEvalPrompt: null, nLine: null });
});

test('eval config, JSON in both shapes', () => {
  const list = parseEvalConfig(
    '{\n  "eval": {\n    "defaults": {"n_samples_per_eval_prompt": 3},\n    "datasets": [\n      {"name": "a", "n_samples_per_eval_prompt": 8},\n      {"name": "b"}\n    ]\n  }\n}\n',
    'c.json',
  );
  assert.deepEqual(list.datasets, [
    { name: 'a', nSamplesPerEvalPrompt: 8, line: 5, nLine: 5, overriddenNames: { dataset: null, datasetName: null } },
    { name: 'b', nSamplesPerEvalPrompt: null, line: 6, nLine: null, overriddenNames: { dataset: null, datasetName: null } },
  ]);
  assert.equal(list.defaults.nSamplesPerEvalPrompt, 3);
  const map = parseEvalConfig('{"datasets": {"a": {"n_samples_per_eval_prompt": 2}, "b": {}}}', 'c.json');
  assert.deepEqual(
    map.datasets.map((d) => [d.name, d.nSamplesPerEvalPrompt]),
    [
      ['a', 2],
      ['b', null],
    ],
  );
});

test('eval config errors are readable and point at the line', () => {
  const cases: [string, RegExp][] = [
    ['eval:\n  datasets:\n    - path: x\n', /^c\.yaml:3: invalid eval config: each evaluation dataset entry must include a `name` field$/],
    ['eval:\n  datasets: 5\n', /^c\.yaml:2: invalid eval config: eval\.datasets must be either a list or a mapping$/],
    [
      'eval:\n  datasets:\n    - name: a\n      n_samples_per_eval_prompt: four\n',
      /^c\.yaml:4: invalid eval config: n_samples_per_eval_prompt of dataset a must be a positive integer, got "four"$/,
    ],
    ['eval:\n  defaults: [1]\n', /^c\.yaml:2: invalid eval config: eval\.defaults must be a mapping$/],
    ['- a\n- b\n', /^c\.yaml: invalid eval config: the top level must be a mapping/],
    ['eval: {datasets: [\n', /^c\.yaml:\d+:\d+: invalid eval config: /],
    ['datasets:\n  - name: a\n  - name: a\n', /^c\.yaml:3: invalid eval config: dataset a is listed twice$/],
  ];
  for (const [text, re] of cases)
    assert.throws(
      () => parseEvalConfig(text, 'c.yaml'),
      (e: Error) => re.test(e.message),
      text,
    );
});

test('loadEvalConfig reads through FileAccess from disk; a missing file is a readable error', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-evalcfg-'));
  const p = join(dir, 'eval_config.yaml');
  writeFileSync(p, '\uFEFF' + LIST_YAML);
  const c = await loadEvalConfig(p, disk);
  assert.equal(c.datasets[0].nSamplesPerEvalPrompt, 16);
  assert.equal(c.path, p);
  await assert.rejects(loadEvalConfig(join(dir, 'nope.yaml'), disk), /nope\.yaml: cannot read eval config: /);
});

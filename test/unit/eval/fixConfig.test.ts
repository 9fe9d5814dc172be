import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyNSamplesFix } from '../../../server/src/core/eval/fixConfig';
import { parseEvalConfig } from '../../../server/src/core/eval/config';
import { applyFixes } from '../../../server/src/cli/applyFixes';
import type { Finding } from '../../../server/src/core/vocabulary/types';

const COMMENTED = `# Eval sets for the weekly run.
eval:
  defaults:
    n_samples_per_eval_prompt: 1   # miles' default
  datasets:
    # competition math: many samples per prompt
    - name: aime
      path: /data/aime.jsonl
      n_samples_per_eval_prompt: 2   # TODO: was 4 before the refactor
    - name: gpqa   # diamond split
      path: /data/gpqa.jsonl
      temperature: 0.6
# end of file
`;

/** Lines that differ between two texts (same line count assumed unless added). */
function changedLines(a: string, b: string): { before: string[]; after: string[] } {
  const x = a.split('\n');
  const y = b.split('\n');
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (tail < x.length - head && tail < y.length - head && x[x.length - 1 - tail] === y[y.length - 1 - tail]) tail++;
  return { before: x.slice(head, x.length - tail), after: y.slice(head, y.length - tail) };
}

test('--fix on a commented YAML file: the diff touches only the one value (comments, spacing kept)', () => {
  const r = applyNSamplesFix(COMMENTED, 'eval_config.yaml', { dataset: 'aime', value: 4 });
  assert.equal(r.action, 'replaced');
  assert.equal(r.previous, 2);
  assert.deepEqual(changedLines(COMMENTED, r.text), {
    before: ['      n_samples_per_eval_prompt: 2   # TODO: was 4 before the refactor'],
    after: ['      n_samples_per_eval_prompt: 4   # TODO: was 4 before the refactor'],
  });
  // The edit is exactly the one character of the value.
  assert.equal(COMMENTED.slice(r.edit.startOffset, r.edit.endOffset), '2');
  assert.equal(r.edit.newText, '4');
  assert.equal(r.text.length, COMMENTED.length);
});

test("--fix: a dataset without its own n gets the key added in its entry's indentation", () => {
  const r = applyNSamplesFix(COMMENTED, 'c.yaml', { dataset: 'gpqa', value: 8 });
  assert.equal(r.action, 'added-key');
  assert.deepEqual(changedLines(COMMENTED, r.text), { before: [], after: ['      n_samples_per_eval_prompt: 8'] });
  assert.equal(parseEvalConfig(r.text, 'c.yaml').datasets[1].nSamplesPerEvalPrompt, 8);
});

test("--fix: a dataset entry that does not exist yet is added in the config's own style", () => {
  const r = applyNSamplesFix(COMMENTED, 'c.yaml', { dataset: 'math500', value: 4 });
  assert.equal(r.action, 'added-entry');
  assert.deepEqual(changedLines(COMMENTED, r.text), { before: [], after: ['    - name: math500', '      n_samples_per_eval_prompt: 4'] });
  assert.ok(r.text.includes('      temperature: 0.6\n    - name: math500\n'));
  assert.deepEqual(
    parseEvalConfig(r.text, 'c.yaml').datasets.map((d) => d.name),
    ['aime', 'gpqa', 'math500'],
  );
  // Mapping shape: `name:` then the key one level in.
  const map = 'datasets:\n  aime:   # hard\n    path: a\n';
  assert.equal(
    applyNSamplesFix(map, 'c.yaml', { dataset: 'gpqa', value: 2 }).text,
    'datasets:\n  aime:   # hard\n    path: a\n  gpqa:\n    n_samples_per_eval_prompt: 2\n',
  );
});

test("--fix on JSON configs: replace the number, add a key, add an entry in the file's layout", () => {
  const json =
    '{\n  "eval": {\n    "datasets": [\n      {"name": "a", "path": "x", "n_samples_per_eval_prompt": 2},\n      {"name": "b", "path": "y"}\n    ]\n  }\n}\n';
  const replaced = applyNSamplesFix(json, 'c.json', { dataset: 'a', value: 4 }).text;
  assert.equal(replaced, json.replace('"n_samples_per_eval_prompt": 2', '"n_samples_per_eval_prompt": 4'));
  const added = applyNSamplesFix(json, 'c.json', { dataset: 'b', value: 4 }).text;
  assert.equal(added, json.replace('"path": "y"}', '"path": "y", "n_samples_per_eval_prompt": 4}'));
  const entry = applyNSamplesFix(json, 'c.json', { dataset: 'c', value: 3 }).text;
  assert.equal(entry, json.replace('"path": "y"}\n', '"path": "y"},\n      {"name": "c", "n_samples_per_eval_prompt": 3}\n'));
  for (const t of [replaced, added, entry]) JSON.parse(t);
});

test('--fix keeps CRLF line endings', () => {
  const crlf = 'eval:\r\n  datasets:\r\n    - name: a\r\n      path: x\r\n';
  assert.equal(
    applyNSamplesFix(crlf, 'c.yaml', { dataset: 'a', value: 4 }).text,
    'eval:\r\n  datasets:\r\n    - name: a\r\n      path: x\r\n      n_samples_per_eval_prompt: 4\r\n',
  );
});

function fixFinding(code: string, dataset: string, value: number, configFile: string | null): Finding {
  return {
    code,
    severity: 'warning',
    file: 'eval_1.jsonl',
    line: 1,
    message: '',
    group: null,
    dataset,
    fix: { kind: 'set-n-samples-per-eval-prompt', dataset, value, configFile },
  };
}

test('rollout-lens check --fix: writes the config on disk, one change per dataset (misgrouped wins); passk and no-config fixes are advice', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-fix-'));
  const path = join(dir, 'eval_config.yaml');
  writeFileSync(path, COMMENTED);
  // passk-group-size-mismatch names the flag at the dataset's own n (no config file): advice only.
  const done = await applyFixes([
    fixFinding('passk-group-size-mismatch', 'gsm8k', 2, null),
    fixFinding('passk-group-size-mismatch', 'aime', 3, null),
    fixFinding('misgrouped-dataset', 'aime', 4, path),
    fixFinding('misgrouped-dataset', 'gpqa', 2, path),
    fixFinding('misgrouped-dataset', 'swe', 8, null),
  ]);
  assert.deepEqual(done, [
    {
      file: null,
      description:
        'no eval config to edit for dataset swe: run with --n-samples-per-eval-prompt 8 (or give an eval config with n_samples_per_eval_prompt: 8 for swe via --eval-config)',
    },
    {
      file: null,
      description:
        "not applied to dataset gsm8k: miles main (31f1ca9) groups every dataset's pass@k by --n-samples-per-eval-prompt; run it with --n-samples-per-eval-prompt 2, the n its eval config sets for it (no file to edit)",
    },
    { file: path, description: 'set n_samples_per_eval_prompt of dataset aime to 4 (was 2)', changed: true },
    { file: path, description: 'added n_samples_per_eval_prompt: 2 to dataset gpqa', changed: true },
  ]);
  const after = readFileSync(path, 'utf8');
  assert.deepEqual(
    parseEvalConfig(after, path).datasets.map((d) => d.nSamplesPerEvalPrompt),
    [4, 2],
  );
  assert.ok(after.includes('# TODO: was 4 before the refactor') && after.includes('# end of file'));
  // Applying again changes nothing.
  const again = await applyFixes([fixFinding('misgrouped-dataset', 'aime', 4, path)]);
  assert.equal(again[0].changed, false);
  assert.equal(readFileSync(path, 'utf8'), after);
  // An unreadable config is reported, not thrown.
  const missing = await applyFixes([fixFinding('misgrouped-dataset', 'aime', 4, join(dir, 'nope.yaml'))]);
  assert.match(missing[0].error ?? '', /cannot read/);
});

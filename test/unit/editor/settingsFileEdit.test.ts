// The quick fix for a pass@k mismatch edits the run settings file when that file sets the global
// n (its value wins over the editor's setting): only the number changes, comments and layout stay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { numericSettingEdit } from '../../../server/src/core/locate/settingsFile';

function applied(text: string, path: string, value: number): string | null {
  const e = numericSettingEdit(text, path, 'nSamplesPerEvalPrompt', value);
  return e ? text.slice(0, e.startOffset) + e.newText + text.slice(e.endOffset) : null;
}

test('YAML: the top-level number is replaced; comments, other keys and a trailing comment stay', () => {
  const text = '# run settings\nnSamplesPerPrompt: 4\nnSamplesPerEvalPrompt: 2   # as miles ran\nevalConfig: eval_config.yaml\n';
  assert.equal(
    applied(text, 'run/rollout-lens.yaml', 4),
    '# run settings\nnSamplesPerPrompt: 4\nnSamplesPerEvalPrompt: 4   # as miles ran\nevalConfig: eval_config.yaml\n',
  );
});

test('YAML: an indented (nested) or commented-out key, or a non-number, is not edited', () => {
  assert.equal(applied('eval:\n  nSamplesPerEvalPrompt: 2\n', 'rollout-lens.yml', 4), null);
  assert.equal(applied('# nSamplesPerEvalPrompt: 2\n', 'rollout-lens.yaml', 4), null);
  assert.equal(applied('nSamplesPerEvalPrompt: two\n', 'rollout-lens.yaml', 4), null);
  assert.equal(applied('nSamplesPerEvalPrompt: 2\nnSamplesPerEvalPrompt: 3\n', 'rollout-lens.yaml', 4), null, 'ambiguous: left to the user');
});

test('JSON: the member value is replaced, the rest of the text kept', () => {
  const text = '{\n  "nSamplesPerPrompt": 4,\n  "nSamplesPerEvalPrompt" : 2\n}\n';
  assert.equal(applied(text, 'rollout-lens.json', 8), '{\n  "nSamplesPerPrompt": 4,\n  "nSamplesPerEvalPrompt" : 8\n}\n');
});

// The run view's prompts across steps: a file's rows packed and read back unchanged (but the reward
// sum, which the history does not read), and the bounds past which a run's prompts are not followed
// (the model then says how many groups were left out).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import type { PromptRow } from '../../../server/src/core/compare/summary';
import {
  MAX_FILE_PROMPT_GROUPS,
  MAX_RUN_PROMPT_GROUPS,
  packPromptRows,
  RunPromptsBuilder,
  unpackPromptRows,
} from '../../../server/src/core/views/runViewPrompts';

function rows(n: number, id: (i: number) => string = (i) => `p${i}`): PromptRow[] {
  return Array.from({ length: n }, (_, i) => [id(i), i % 2, 4, i % 3, 1.5, i + 1, 10 * i] as PromptRow);
}

test('packed prompt rows read back as they were, ids of any text included', () => {
  const ids = ['', 'a', '\u202E<b>é\u0000', '🎉', 'x'.repeat(300)];
  const original = rows(ids.length, (i) => ids[i]);
  const packed = packPromptRows(['kept', 'zero_std_0'], original)!;
  assert.deepEqual(
    unpackPromptRows(packed),
    original.map((r) => [r[0], r[1], r[2], r[3], 0, r[5], r[6]]),
  );
  assert.equal(packPromptRows(['kept'], rows(MAX_FILE_PROMPT_GROUPS + 1)), null, 'a file past the bound keeps none');
});

test('a run is followed up to its bound of groups; past it, or with a file past its own, the model counts what was left out', () => {
  const small = new RunPromptsBuilder();
  small.add(0, 1, 'a.jsonl', 'a.jsonl', { packed: packPromptRows(['kept'], rows(3))! });
  small.add(0, 2, 'b.jsonl', 'b.jsonl', { packed: packPromptRows(['kept'], rows(2))! });
  const followed = small.finish(0);
  assert.equal(followed.promptGroupsOmitted, 0);
  assert.deepEqual([followed.prompts?.prompts, followed.prompts?.groups], [3, 5]);
  assert.deepEqual(small.finish(1), { prompts: null, promptGroupsOmitted: 0 }, 'a run without rollout prompts');

  const oneLarge = new RunPromptsBuilder();
  oneLarge.add(0, 1, 'a.jsonl', 'a.jsonl', { packed: packPromptRows(['kept'], rows(3))! });
  oneLarge.add(0, 2, 'b.jsonl', 'b.jsonl', { omittedGroups: MAX_FILE_PROMPT_GROUPS + 1 });
  assert.deepEqual(oneLarge.finish(0), { prompts: null, promptGroupsOmitted: MAX_FILE_PROMPT_GROUPS + 4 });

  const many = new RunPromptsBuilder();
  const files = Math.floor(MAX_RUN_PROMPT_GROUPS / MAX_FILE_PROMPT_GROUPS) + 1;
  const packed = packPromptRows(['kept'], rows(MAX_FILE_PROMPT_GROUPS))!;
  for (let f = 0; f < files; f++) many.add(0, f, `${f}.jsonl`, `${f}.jsonl`, { packed });
  assert.deepEqual(many.finish(0), { prompts: null, promptGroupsOmitted: files * MAX_FILE_PROMPT_GROUPS });
});

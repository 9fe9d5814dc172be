// miles' trajectory sidecar beside its .pt (docs/pt.md#the-trajectory-sidecar): verdicts from the
// .pt when it is there; alone, no cause called unknown and groups missing rows named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_SETTINGS } from '../../../shared/protocol';
import { analyzeFiles } from '../../../server/src/core/engine';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { repoRoot } from '../../lsp/fixtures';
import { tempDir } from '../cli/run';

const RUN = join(repoRoot(), 'test/fixtures/pt/run');
const options = { access: nodeFileAccess, settings: DEFAULT_SETTINGS };

test('sidecar with its .pt: groups, drop metrics and findings are the .pt’s, on the rows of the same samples', async () => {
  const path = join(RUN, 'trajectory/1.jsonl');
  const r = await analyzeFiles([{ path, displayPath: path }], options);
  const f = r.files[0];
  assert.equal(f.format, 'miles-trajectory');
  assert.deepEqual(f.groups, { total: 6, kept: 2, dropped: 4 });
  assert.equal(f.metrics['rollout/dynamic_filter/drop_group_has_aborted_SandboxUnavailable'], 1);
  assert.equal(f.metrics['rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable'], 1);
  assert.equal(r.findings[0].code, 'trajectory-verdicts-from-pt');
  assert.match(r.findings[0].message, /rows for 20 of the step's 24 samples/);
  // Group 2's aborted samples have no row (aborted before any model call): its drop is shown on
  // the group's first row, with the .pt line (sample 9) as related.
  const sandbox = r.findings.find((x) => x.message.includes('group_has_aborted_SandboxUnavailable'))!;
  assert.equal(sandbox.line, 8);
  assert.deepEqual(sandbox.related?.[0], { file: join(RUN, 'rollout_data/1.pt'), line: 9 });
});

test('sidecar alone: an aborted row drops its group under group_has_aborted, never _unknown; missing rows named', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'trajectory'));
  const path = join(dir, 'trajectory/1.jsonl');
  copyFileSync(join(RUN, 'trajectory/1.jsonl'), path);
  const r = await analyzeFiles([{ path, displayPath: path }], options);
  const f = r.files[0];
  assert.ok(!Object.keys(f.metrics).some((m) => m.endsWith('_unknown')), JSON.stringify(f.metrics));
  assert.equal(f.metrics['rollout/dynamic_filter/drop_group_has_aborted'], 1);
  assert.ok(!r.findings.some((x) => x.code === 'abort-cause-unknown' || x.message.includes('_unknown')));
  const missing = r.findings.filter((x) => x.code === 'trajectory-missing-members');
  assert.deepEqual(
    missing.map((x) => x.group),
    ['1', '2', '4'],
  );
  assert.match(missing[0].message, /rollout_data[\\/]1\.pt/);
});

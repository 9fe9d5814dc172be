// `rolloutLens/runStatus` over a real LSP connection: a run's findings as diagnostics for every
// file (the Problems panel of the Inspect command), its totals from the run model, and the
// settings file and eval config in effect; the same as `check --format json` on the same folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import {
  EvalDatasetsRequest,
  GroupsByCauseRequest,
  RunStatusRequest,
  type EvalDatasetsResult,
  type GroupsByCauseResult,
  type RunStatusResult,
} from '../../shared/protocol';
import { repoRoot } from './fixtures';
import { withHarness } from './harness';

const ROOT = repoRoot();
const RUN = join(ROOT, 'examples/run');
const uriOf = (p: string) => pathToFileURL(p).href;

interface CheckFinding {
  code: string;
  severity: 'error' | 'warning' | 'information' | 'hint';
  file: string;
  line: number;
}

function checkJson(): { findings: CheckFinding[] } {
  const r = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), 'check', '--format', 'json', '--exit-zero', RUN], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { findings: CheckFinding[] };
}

test('runStatus on the example run: the totals, findings and diagnostics check reports; its settings file and eval config', async () => {
  const check = checkJson();
  const bySeverity = { error: 0, warning: 0, information: 0, hint: 0 };
  for (const f of check.findings) bySeverity[f.severity]++;
  await withHarness({ workspaceFolders: [ROOT], settings: () => ({}) }, async (h) => {
    const status = (await h.client.sendRequest(RunStatusRequest, { uri: uriOf(RUN) })) as RunStatusResult;
    // "run: 14 of 28 groups dropped · 2 metric mismatches": the run model's rollout steps (miles' 3, verl's 1).
    assert.deepEqual(status.groups, { total: 28, kept: 14, dropped: 14 });
    assert.equal(status.rolloutSteps, 4);
    assert.equal(status.metricMismatches, 2);
    assert.equal(status.metricMismatches, check.findings.filter((f) => f.code === 'metric-mismatch').length);
    assert.deepEqual(status.findings, bySeverity);
    assert.deepEqual(
      status.runs.map((r) => [r.framework, r.steps.length]),
      [
        ['miles', 4],
        ['verl', 2],
      ],
    );
    // Diagnostics: one per finding, on the finding's file and line (0-based), metrics.jsonl's mismatches included.
    const got = status.files.flatMap((f) => f.diagnostics.map((d) => `${f.uri}:${d.range.start.line}:${String(d.code)}`)).sort();
    const want = check.findings.map((f) => `${uriOf(f.file)}:${f.line - 1}:${f.code}`).sort();
    assert.deepEqual(got, want);
    const metrics = status.files.find((f) => f.uri === uriOf(join(RUN, 'metrics.jsonl')));
    assert.ok(metrics?.diagnostics.some((d) => d.code === 'metric-mismatch' && d.source === 'rollout-lens'));
    // What configured it.
    assert.deepEqual(status.context, { settingsFiles: [uriOf(join(RUN, 'rollout-lens.yaml'))], evalConfigs: [uriOf(join(RUN, 'eval_config.yaml'))] });

    // The Groups and Eval datasets answers say the same.
    const groups = (await h.client.sendRequest(GroupsByCauseRequest, { uri: uriOf(RUN) })) as GroupsByCauseResult;
    assert.deepEqual(groups.context, status.context);
    const datasets = (await h.client.sendRequest(EvalDatasetsRequest, { uri: uriOf(RUN) })) as EvalDatasetsResult;
    assert.ok(datasets.datasets.length > 0);
    for (const d of datasets.datasets.filter((x) => x.uri.endsWith('/eval/eval_100.jsonl'))) {
      assert.equal(d.evalConfig, uriOf(join(RUN, 'eval_config.yaml')));
      assert.equal(d.settingsFile, uriOf(join(RUN, 'rollout-lens.yaml')));
    }

    // One log: its own counts and findings; no metrics log to compare.
    const one = uriOf(join(RUN, 'rollout/rollout_1.jsonl'));
    const single = (await h.client.sendRequest(RunStatusRequest, { uri: one })) as RunStatusResult;
    assert.equal(single.rolloutSteps, 1);
    assert.equal(single.groups.total, status.runs[0].steps.find((s) => s.uris[0] === one)?.groups.total);
    assert.equal(single.metricMismatches, 0);
    assert.deepEqual(
      single.files.map((f) => f.uri),
      [one],
    );
    assert.equal(single.files[0].diagnostics.length, check.findings.filter((f) => f.file.endsWith('rollout/rollout_1.jsonl')).length);
    assert.deepEqual(single.context.settingsFiles, [uriOf(join(RUN, 'rollout-lens.yaml'))]);
    assert.deepEqual(single.context.evalConfigs, []);

    await assert.rejects(h.client.sendRequest(RunStatusRequest, {} as never), /runStatus needs \{ uri \}/);
  });
});

test('runStatus on a miles dump folder without a settings file: none named; its eval config beside the dump', async () => {
  const folder = join(ROOT, 'test/fixtures/pt/dumpdir');
  await withHarness({ workspaceFolders: [folder], settings: () => ({}) }, async (h) => {
    const status = (await h.client.sendRequest(RunStatusRequest, { uri: uriOf(folder) })) as RunStatusResult;
    assert.deepEqual(status.context, { settingsFiles: [], evalConfigs: [uriOf(join(folder, 'eval_config.yaml'))] });
    assert.deepEqual(status.groups, { total: 9, kept: 5, dropped: 4 });
    assert.equal(status.rolloutSteps, 2);
  });
});

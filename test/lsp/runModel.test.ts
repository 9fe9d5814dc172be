// One run, counted once and shown the same everywhere: on the dump folder miles' own writers made
// (test/fixtures/pt/dumpdir: two training steps, an eval step, trajectory sidecars incl. the eval
// one, train_data of two ranks), `check`'s text and JSON, `report`'s run view model, and the
// language server's Groups view, run steps and run view answers (over a real LSP connection) agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import {
  GroupsByCauseRequest,
  RunStatusRequest,
  RunStepsRequest,
  RunViewRequest,
  type GroupsByCauseResult,
  type RunStatusResult,
  type RunStepsResult,
} from '../../shared/protocol';
import type { RunView } from '../../shared/runViewModel';
import { CONTRACT } from '../shared/jsonContract';
import { tempDir } from '../shared/tempDir';
import { repoRoot } from './fixtures';
import { withHarness } from './harness';

const ROOT = repoRoot();
const DUMP = join(ROOT, 'test/fixtures/pt/dumpdir');
const CLI = join(ROOT, 'dist/cli.js');
const DROP = 'rollout/dynamic_filter/drop_';

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The run view model a `report` file carries (its non-executed JSON element). */
function reportModel(html: string): RunView {
  const m = /<script type="application\/json" id="run-view-model">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(m, 'the report embeds its model');
  return JSON.parse(m[1]) as RunView;
}

test('check (text and JSON), report and the Groups view agree on a miles dump folder: 2 steps, each finding once', async (t) => {
  // check --format json: the reference.
  const json = cli('check', '--format', 'json', DUMP);
  assert.equal(json.status, 0, json.stderr);
  const doc = CONTRACT.parse(JSON.parse(json.stdout));
  assert.equal(doc.runs.length, 1);
  const rollout = doc.runs[0].steps.filter((s) => s.kind === 'rollout');
  const evals = doc.runs[0].steps.filter((s) => s.kind === 'eval');
  const counts = rollout.map((s) => ({ step: s.step, ...s.groups, drops: s.droppedByCause }));
  assert.deepEqual(
    counts.map((c) => [c.step, c.total, c.kept, c.dropped]),
    [
      [1, 6, 2, 4],
      [2, 3, 3, 0],
    ],
  );
  assert.deepEqual(
    evals.map((s) => s.step),
    [2],
  );
  const codes = doc.findings.map((f) => f.code);
  assert.ok(!codes.includes('misgrouped-dataset') && !codes.includes('unknown-format'), codes.join(', '));
  const keyed = doc.findings.map((f) => `${f.file}:${f.line}:${f.code}`);
  assert.equal(new Set(keyed).size, keyed.length, 'each finding once');
  const codeCounts: Record<string, number> = {};
  for (const c of codes) codeCounts[c] = (codeCounts[c] ?? 0) + 1;

  // check's text: the same steps and counts, the same findings.
  const text = cli('check', DUMP);
  assert.equal(text.status, 0, text.stderr);
  for (const c of counts) assert.match(text.stdout, new RegExp(`^  step ${c.step}: ${c.total} groups?, ${c.kept} kept, ${c.dropped} dropped; `, 'm'));
  assert.match(text.stdout, /^ {2}eval step 2: 5 prompt groups; /m);
  assert.equal(text.stdout.split('\n').filter((l) => /^\S+:\d+:\d+: (error|warning|information|hint) /.test(l)).length, doc.findings.length);

  // report: its run view model has the same steps, groups, drops and finding counts.
  const out = join(tempDir(t, 'rl-runmodel-'), 'report.html');
  const rep = cli('report', '--out', out, DUMP);
  assert.equal(rep.status, 0, rep.stderr);
  const model = reportModel(readFileSync(out, 'utf8'));
  const viewCounts = (view: RunView) => view.steps.map((s) => ({ step: s.step, total: s.groups, kept: s.kept, dropped: s.dropped, drops: s.drops }));
  assert.deepEqual(viewCounts(model), counts);
  // Its findings are listed by code in the file's own section (the model's counts are left empty).
  const listed = Object.fromEntries(
    [...readFileSync(out, 'utf8').matchAll(/<summary><span class="sev sev-\w+">\w+<\/span> <code>([\w-]+)<\/code>: (\d+)<\/summary>/g)].map((m) => [
      m[1],
      Number(m[2]),
    ]),
  );
  assert.deepEqual(listed, codeCounts);
  assert.deepEqual(
    model.eval.map((e) => [e.step, e.dataset, e.samples]),
    [
      [2, 'aime', 8],
      [2, 'gpqa', 6],
    ],
  );

  // The language server: the Groups view's answer for the folder, its run steps and its run view.
  await withHarness({ workspaceFolders: [ROOT], settings: () => ({}) }, async (h) => {
    const uri = pathToFileURL(DUMP).href;
    const groups = (await h.client.sendRequest(GroupsByCauseRequest, { uri })) as GroupsByCauseResult;
    assert.equal(groups.runs.length, 1);
    const run = groups.runs[0];
    assert.equal(run.framework, 'miles');
    assert.deepEqual(
      run.steps.map((s) => [s.kind, s.step, s.groups, s.droppedByCause, s.uris]),
      doc.runs[0].steps.map((s) => [s.kind, s.step, s.groups, s.droppedByCause, s.files.map((f) => pathToFileURL(f).href)]),
    );
    // Its per-file entries are the analysed rollout files only: one per step.
    assert.deepEqual(
      groups.files.map((f) => [f.step, f.dropped, f.kept]),
      counts.map((c) => [c.step, c.dropped, c.kept]),
    );
    for (const [i, f] of groups.files.entries()) {
      const byCause = Object.fromEntries(f.buckets.filter((b) => b.reason !== 'kept').map((b) => [b.reason, b.count]));
      assert.deepEqual(byCause, counts[i].drops);
    }
    const steps = (await h.client.sendRequest(RunStepsRequest, { folderUri: uri })) as RunStepsResult;
    assert.deepEqual(
      steps.steps.map((s) => [s.step, Object.fromEntries(Object.entries(s.drops).map(([k, v]) => [k.slice(DROP.length), v]))]),
      counts.map((c) => [c.step, c.drops]),
    );
    const view = (await h.client.sendRequest(RunViewRequest, { uri })) as RunView;
    assert.deepEqual(viewCounts(view), counts);
    assert.deepEqual(view.findings, codeCounts);
    // The run status item's counts: the same steps, groups and findings.
    const status = (await h.client.sendRequest(RunStatusRequest, { uri })) as RunStatusResult;
    assert.equal(status.rolloutSteps, counts.length);
    assert.deepEqual(status.groups, {
      total: counts.reduce((a, c) => a + c.total, 0),
      kept: counts.reduce((a, c) => a + c.kept, 0),
      dropped: counts.reduce((a, c) => a + c.dropped, 0),
    });
    assert.equal(
      status.files.reduce((a, f) => a + f.diagnostics.length, 0),
      doc.findings.length,
    );
  });
});

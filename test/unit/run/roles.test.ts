// Each role rule of the run model (core/run/plan.ts, core/run/model.ts) through the built CLI, on
// the dump folder miles' own writers made (test/fixtures/pt/dumpdir, generate.py dumpdir) and on
// copies of parts of it: what `check` reads, which step a file describes, and that nothing is
// counted or reported twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { repoRoot } from '../../lsp/fixtures';
import { CONTRACT, type ContractReport } from '../../shared/jsonContract';
import { runCli, tempDir } from '../cli/run';

const ROOT = repoRoot();
const DUMP = join(ROOT, 'test/fixtures/pt/dumpdir');
const EVAL_CONFIG = join(DUMP, 'eval_config.yaml');

function check(...paths: string[]): ContractReport & { status: number | null } {
  const r = runCli(['check', '--format', 'json', '--eval-config', EVAL_CONFIG, ...paths]);
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return { ...CONTRACT.parse(JSON.parse(r.stdout)), status: r.status };
}

/** `D/<rel>` copied from the fixture dump folder into `dir`. */
function copyInto(dir: string, ...rels: string[]): void {
  for (const rel of rels) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    copyFileSync(join(DUMP, rel), join(dir, rel));
  }
}

const stepsOf = (r: ContractReport) => r.runs.flatMap((run) => run.steps.map((s) => `${s.kind} ${s.step}`));

test('sidecar with its .pt, train_data of two ranks: 2 rollout steps and 1 eval step, each finding once', () => {
  const r = check(DUMP);
  assert.equal(r.status, 0, 'no error: the eval sidecar is not checked as an eval step');
  assert.deepEqual(
    r.files.map((f) => f.path),
    ['rollout_data/1.pt', 'rollout_data/2.pt', 'rollout_data/eval_2.pt'].map((p) => join(DUMP, p)),
  );
  assert.equal(r.runs.length, 1);
  assert.deepEqual([r.runs[0].root, r.runs[0].framework], [DUMP, 'miles']);
  assert.deepEqual(stepsOf(r), ['rollout 1', 'rollout 2', 'eval 2']);
  const [one, two, ev] = r.runs[0].steps;
  assert.deepEqual(
    one.files,
    ['rollout_data/1.pt', 'train_data/1_0.pt', 'train_data/1_1.pt', 'trajectory/1.jsonl'].map((p) => join(DUMP, p)),
  );
  assert.deepEqual(
    ev.files,
    ['rollout_data/eval_2.pt', 'trajectory/eval_2.jsonl'].map((p) => join(DUMP, p)),
  );
  assert.deepEqual(
    [one.groups, two.groups],
    [
      { total: 6, kept: 2, dropped: 4 },
      { total: 3, kept: 3, dropped: 0 },
    ],
  );
  assert.deepEqual(one.droppedByCause, {
    group_has_aborted_ServerUnreachable: 1,
    group_has_aborted_SandboxUnavailable: 1,
    group_has_aborted_TimeLimitExceeded: 1,
    group_has_aborted_unknown: 1,
  });
  assert.equal(one.partial || two.partial || ev.partial, false);
  assert.equal(ev.metrics['eval/aime-pass@4'], 1);
  for (const f of r.findings) assert.match(f.file, /\/rollout_data\/(1|2|eval_2)\.pt$/, `${f.code} on ${f.file}`);
  const keys = r.findings.map((f) => `${f.file}:${f.line}:${f.code}:${f.message}`);
  assert.equal(new Set(keys).size, keys.length, 'no finding twice');
  assert.ok(!r.findings.some((f) => f.code === 'misgrouped-dataset' || f.code === 'unknown-format'));
});

test('a rollout sidecar whose .pt is not in the run is a partial step that says so, counted once', (t) => {
  const dir = tempDir(t);
  copyInto(dir, 'trajectory/1.jsonl', 'train_data/1_0.pt');
  const r = check(dir);
  assert.deepEqual(stepsOf(r), ['rollout 1']);
  const [step] = r.runs[0].steps;
  assert.equal(step.partial, true);
  assert.deepEqual(step.files, [join(dir, 'trajectory/1.jsonl')], 'train_data without its .pt describes no step here');
  const partial = r.findings.filter((f) => f.code === 'partial-step');
  assert.equal(partial.length, 1);
  assert.equal(partial[0].severity, 'information');
  assert.match(partial[0].message, /rows only for the 20 samples that recorded messages/);
  assert.ok(!r.findings.some((f) => f.code === 'unknown-format' || f.code === 'abort-cause-unknown'));
});

test('an eval sidecar alone: a partial eval step, no misgrouped-dataset, no pass@k, nothing claimed of miles', (t) => {
  // Alone on disk, and beside its .pt on disk but given without it: the same answer.
  const alone = tempDir(t);
  copyInto(alone, 'trajectory/eval_2.jsonl');
  const beside = tempDir(t);
  copyInto(beside, 'trajectory/eval_2.jsonl', 'rollout_data/eval_2.pt');
  for (const path of [join(alone, 'trajectory'), join(beside, 'trajectory')]) {
    const r = check(path);
    assert.equal(r.status, 0, JSON.stringify(r.findings));
    assert.deepEqual(
      r.findings.map((f) => f.code),
      ['partial-step'],
    );
    assert.doesNotMatch(r.findings[0].message, /AssertionError|fails|pass@k =/);
    assert.match(r.findings[0].message, /no dataset, pass@k or grouping is checked here/);
    assert.deepEqual(r.files[0].metrics, {});
    const [step] = r.runs[0].steps;
    assert.deepEqual([step.kind, step.step, step.partial, step.metrics], ['eval', 2, true, {}]);
  }
});

test('a .pt and its JSON Lines export count once, as the .pt', (t) => {
  const dir = tempDir(t);
  copyInto(dir, 'rollout_data/1.pt');
  const exported = runCli(['export', join(dir, 'rollout_data/1.pt'), '--out', join(dir, 'rollout_data/1.jsonl')]);
  assert.equal(exported.status, 0, exported.stderr);
  const both = check(dir);
  const ptAlone = check(join(dir, 'rollout_data/1.pt'));
  assert.deepEqual(
    both.files.map((f) => f.path),
    [join(dir, 'rollout_data/1.pt')],
  );
  assert.deepEqual(both.runs[0].steps[0].files, [join(dir, 'rollout_data/1.pt'), join(dir, 'rollout_data/1.jsonl')]);
  assert.deepEqual(both.runs[0].steps[0].groups, ptAlone.runs[0].steps[0].groups);
  assert.deepEqual(both.findings, ptAlone.findings);
  // The export alone is the step.
  const exportAlone = check(join(dir, 'rollout_data/1.jsonl'));
  assert.deepEqual(exportAlone.runs[0].steps[0].groups, { total: 6, kept: 2, dropped: 4 });
});

test('train_data is never scanned: no unknown-format, no step of its own', (t) => {
  const dir = tempDir(t);
  copyInto(dir, 'rollout_data/2.pt', 'train_data/2_0.pt', 'train_data/2_1.pt', 'train_data/1_0.pt');
  const r = check(dir);
  assert.deepEqual(
    r.files.map((f) => f.path),
    [join(dir, 'rollout_data/2.pt')],
  );
  assert.deepEqual(stepsOf(r), ['rollout 2']);
  assert.deepEqual(r.runs[0].steps[0].files, [join(dir, 'rollout_data/2.pt'), join(dir, 'train_data/2_0.pt'), join(dir, 'train_data/2_1.pt')]);
  assert.ok(!r.findings.some((f) => f.file.includes('train_data')));
});

test('verl and miles files in one folder are two runs of one root', (t) => {
  const dir = tempDir(t);
  copyFileSync(join(ROOT, 'examples/run/rollout/rollout_1.jsonl'), join(dir, 'rollout_1.jsonl'));
  copyFileSync(join(ROOT, 'examples/run/verl/rollout/12.jsonl'), join(dir, '12.jsonl'));
  const r = check(dir);
  assert.deepEqual(
    r.runs.map((run) => [run.root, run.framework, run.steps.map((s) => `${s.kind} ${s.step}`)]),
    [
      [dir, 'miles', ['rollout 1']],
      [dir, 'verl', ['rollout 12']],
    ],
  );
});

test('the text report lists the run model’s steps, with the files that only describe them', () => {
  const r = runCli(['check', '--eval-config', EVAL_CONFIG, DUMP]);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n');
  assert.ok(lines.includes(`run ${DUMP} (miles): 2 rollout steps (9 groups, 5 kept, 4 dropped), 1 eval step`), r.stdout);
  const step1 = lines.find((l) => l.startsWith('  step 1: '));
  assert.equal(
    step1,
    `  step 1: 6 groups, 2 kept, 4 dropped; ${join(DUMP, 'rollout_data/1.pt')}, ${join(DUMP, 'train_data/1_0.pt')} (annotates it), ` +
      `${join(DUMP, 'train_data/1_1.pt')} (annotates it), ${join(DUMP, 'trajectory/1.jsonl')} (annotates it)`,
  );
  assert.equal(
    lines.at(-2),
    "3 files checked (and 7 that annotate a step, not read as steps; 4 train_data files of them read for their step's figures): 0 errors, 7 warnings, 1 information, 0 hints",
  );
});

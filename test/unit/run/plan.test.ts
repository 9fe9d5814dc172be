// The run plan (core/run/plan.ts): each file's role from its path alone, and the run's root.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { dumpPlace, filesToRead, planRun, trainDataRollouts } from '../../../server/src/core/run/plan';

const plan = (paths: string[], given: string[] = ['D']) =>
  planRun(
    paths.map((p) => ({ path: p, displayPath: p })),
    given,
  );
const roleOf = (paths: string[], path: string, given?: string[]) => {
  const f = plan(paths, given).byPath.get(path)!;
  return { role: f.role, root: f.root, step: f.step, annotation: f.annotation };
};

test('a trajectory sidecar beside its .pt annotates that step; alone it is a partial step', () => {
  const both = ['D/rollout_data/1.pt', 'D/trajectory/1.jsonl'];
  assert.deepEqual(roleOf(both, 'D/trajectory/1.jsonl'), {
    role: 'annotation',
    root: 'D',
    step: { kind: 'rollout', step: 1 },
    annotation: { kind: 'trajectory', of: 'D/rollout_data/1.pt' },
  });
  assert.deepEqual(roleOf(both, 'D/rollout_data/1.pt'), { role: 'primary', root: 'D', step: { kind: 'rollout', step: 1 }, annotation: null });
  assert.deepEqual(roleOf(['D/trajectory/1.jsonl'], 'D/trajectory/1.jsonl'), {
    role: 'partial',
    root: 'D',
    step: { kind: 'rollout', step: 1 },
    annotation: null,
  });
  // Another step's .pt does not make a sidecar an annotation.
  assert.equal(roleOf(['D/rollout_data/2.pt', 'D/trajectory/1.jsonl'], 'D/trajectory/1.jsonl').role, 'partial');
  assert.deepEqual(
    filesToRead(
      plan(both),
      both.map((p) => ({ displayPath: p })),
    ),
    [{ displayPath: 'D/rollout_data/1.pt' }],
  );
});

test('an eval sidecar belongs to the eval step of its number, never to the rollout step', () => {
  const paths = ['D/rollout_data/2.pt', 'D/rollout_data/eval_2.pt', 'D/trajectory/eval_2.jsonl'];
  assert.deepEqual(roleOf(paths, 'D/trajectory/eval_2.jsonl').annotation, { kind: 'trajectory', of: 'D/rollout_data/eval_2.pt' });
  assert.deepEqual(roleOf(paths, 'D/rollout_data/eval_2.pt').step, { kind: 'eval', step: 2 });
  assert.deepEqual(roleOf(['D/rollout_data/2.pt', 'D/trajectory/eval_2.jsonl'], 'D/trajectory/eval_2.jsonl').role, 'partial');
});

test('train_data of every rank annotates its rollout step and is never read, even without its .pt', () => {
  const paths = ['D/rollout_data/1.pt', 'D/train_data/1_0.pt', 'D/train_data/1_1.pt', 'D/train_data/3_0.pt'];
  const p = plan(paths);
  assert.deepEqual(p.byPath.get('D/train_data/1_1.pt')!.annotation, { kind: 'train-data', of: 'D/rollout_data/1.pt' });
  assert.deepEqual(p.byPath.get('D/train_data/3_0.pt')!.annotation, { kind: 'train-data', of: null });
  assert.deepEqual(
    filesToRead(
      p,
      paths.map((x) => ({ displayPath: x })),
    ).map((t) => t.displayPath),
    ['D/rollout_data/1.pt'],
  );
});

test('events/ and dashboard_columns/ files annotate the step their name ends with', () => {
  const paths = ['D/rollout_data/4.pt', 'D/rollout_data/eval_4.pt', 'D/dashboard_columns/rollout_eval_4.jsonl', 'D/events/4.jsonl'];
  assert.deepEqual(roleOf(paths, 'D/dashboard_columns/rollout_eval_4.jsonl').annotation, { kind: 'dashboard', of: 'D/rollout_data/eval_4.pt' });
  assert.deepEqual(roleOf(paths, 'D/events/4.jsonl').annotation, { kind: 'events', of: 'D/rollout_data/4.pt' });
});

test('a JSON Lines export beside its .pt (same folder, same stem) annotates it; alone it is the step', () => {
  assert.deepEqual(roleOf(['D/rollout_data/1.pt', 'D/rollout_data/1.jsonl'], 'D/rollout_data/1.jsonl').annotation, {
    kind: 'export',
    of: 'D/rollout_data/1.pt',
  });
  assert.equal(roleOf(['D/rollout_data/1.jsonl'], 'D/rollout_data/1.jsonl').role, 'primary');
  // Outside a dump layout too: `out/7.pt` and its export `out/7.jsonl`.
  assert.deepEqual(roleOf(['out/7.pt', 'out/7.jsonl'], 'out/7.jsonl', ['out']), {
    role: 'annotation',
    root: 'out',
    step: null,
    annotation: { kind: 'export', of: 'out/7.pt' },
  });
  assert.equal(roleOf(['out/7.pt', 'out/8.jsonl'], 'out/8.jsonl', ['out']).role, 'primary');
});

test('the root: the dump folder for dump-layout files, else the folder given, else a given file’s folder', () => {
  assert.equal(roleOf(['runs/a/D/rollout_data/1.pt'], 'runs/a/D/rollout_data/1.pt', ['runs']).root, 'runs/a/D');
  assert.equal(roleOf(['rollout_data/1.pt'], 'rollout_data/1.pt', []).root, '.');
  assert.equal(roleOf(['runs/a/verl/3.jsonl'], 'runs/a/verl/3.jsonl', ['runs/', 'runs/a']).root, 'runs/a');
  assert.equal(roleOf(['logs/x/3.jsonl'], 'logs/x/3.jsonl', ['other']).root, 'logs/x');
  assert.equal(roleOf(['3.jsonl'], '3.jsonl', []).root, '.');
  assert.deepEqual(dumpPlace('a\\D\\trajectory\\eval_3.jsonl'), { root: 'a\\D', folder: 'trajectory', rest: 'eval_3.jsonl', sep: '\\' });
  assert.equal(dumpPlace('a/D/other/3.jsonl'), null);
});

test("only the rollout dumps a step's train_data names are joined (indexed by Sample.index)", () => {
  const p = plan(['D/rollout_data/1.pt', 'D/rollout_data/2.pt', 'D/train_data/1_0.pt', 'D/train_data/1_1.pt', 'D/train_data/3_0.pt']);
  assert.deepEqual([...trainDataRollouts(p)], ['D/rollout_data/1.pt']);
  assert.deepEqual([...trainDataRollouts(plan(['D/rollout_data/1.pt', 'D/rollout_data/2.pt']))], []);
  assert.deepEqual([...trainDataRollouts(null)], []);
});

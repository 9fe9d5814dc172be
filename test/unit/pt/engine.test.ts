// .pt dumps through the engine and the CLI exactly like JSONL logs: format miles-pt, the rollout
// findings and metrics, eval datasets split at index restarts and matched to the eval config,
// folders that include *.pt, and `rollout-lens export`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_SETTINGS } from '../../../shared/protocol';
import { analyzeFiles } from '../../../server/src/core/engine';
import { walkPaths } from '../../../server/src/core/locate/walk';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { repoRoot } from '../../lsp/fixtures';
import { runCli, tempDir } from '../cli/run';

const RUN = join(repoRoot(), 'test/fixtures/pt/run');
const options = { access: nodeFileAccess, settings: DEFAULT_SETTINGS };

async function checkOne(path: string) {
  return analyzeFiles([{ path, displayPath: path }], options);
}

test('pt engine: a train step .pt is miles-pt (rollout) with its dropped groups by cause and their metrics', async () => {
  const r = await checkOne(join(RUN, 'rollout_data/1.pt'));
  const f = r.files[0];
  assert.equal(f.format, 'miles-pt');
  assert.equal(f.kind, 'rollout');
  assert.equal(f.records, 24);
  assert.deepEqual(f.groups, { total: 6, kept: 2, dropped: 4 });
  assert.equal(f.metrics['rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable'], 1);
  assert.equal(f.metrics['rollout/dynamic_filter/drop_group_has_aborted_SandboxUnavailable'], 1);
  assert.equal(f.metrics['rollout/dynamic_filter/drop_group_has_aborted_TimeLimitExceeded'], 1);
  assert.equal(f.metrics['rollout/dynamic_filter/drop_group_has_aborted_unknown'], 1);
  // Line N is sample N: group 1's aborted sample is the dump's 6th sample.
  const dropped = r.findings.filter((x) => x.code === 'group-dropped').map((x) => x.line);
  assert.deepEqual(dropped, [6, 9, 15, 18]);
  assert.ok(r.findings.some((x) => x.code === 'infra-failure-scored' && x.line === 21));
});

test('pt engine: an eval .pt splits its datasets at index restarts, named from the eval config in order', async () => {
  const r = await checkOne(join(RUN, 'rollout_data/eval_10.pt'));
  const f = r.files[0];
  assert.equal(f.format, 'miles-pt');
  assert.equal(f.kind, 'eval');
  const ds = f.detail!.datasets.map((d) => [d.name, d.samples, d.n]);
  assert.deepEqual(ds, [
    ['aime', 8, 4],
    ['gpqa', 6, 2],
  ]);
  assert.equal(f.metrics['eval/aime'], 0.375);
  assert.equal(f.metrics['eval/gpqa-none_reward_ratio'], 1 / 6);
});

test('pt engine: MoE/LoRA and VLM dumps (numpy arrays, adapters, tensors, images) read without findings', async () => {
  for (const step of ['3', '4']) {
    const r = await checkOne(join(RUN, `rollout_data/${step}.pt`));
    assert.equal(r.files[0].format, 'miles-pt', step);
    assert.equal(r.files[0].invalidLines, 0, step);
    assert.ok(!r.findings.some((x) => x.severity === 'error'), `${step}: ${JSON.stringify(r.findings)}`);
  }
});

test('pt engine: a folder includes its *.pt dumps, in step order', async () => {
  const w = await walkPaths([RUN], nodeFileAccess);
  const names = w.targets.map((t) => t.displayPath.replace(/\\/g, '/').replace(`${RUN}/`, ''));
  assert.deepEqual(
    names.filter((n) => n.endsWith('.pt')),
    ['rollout_data/1.pt', 'rollout_data/2.pt', 'rollout_data/3.pt', 'rollout_data/4.pt', 'rollout_data/eval_10.pt'],
  );
});

test('pt CLI: check --format json on a folder names the miles-pt files; exit 0 without errors', () => {
  const r = runCli(['check', '--format', 'json', RUN]);
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as { files: { path: string; format: string }[] };
  assert.equal(doc.files.filter((f) => f.format === 'miles-pt').length, 5);
});

test('pt CLI: export writes one JSON line per sample, equal to torch.load’s view of the dump', (t) => {
  const out = join(tempDir(t), 'eval_10.jsonl');
  const r = runCli(['export', join(RUN, 'rollout_data/eval_10.pt'), '--out', out]);
  assert.equal(r.status, 0, r.stderr);
  const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
  const expected = JSON.parse(readFileSync(join(repoRoot(), 'test/fixtures/pt/expected/eval_10.json'), 'utf8'));
  assert.deepEqual(
    lines.map((l) => JSON.parse(l)),
    expected.samples,
  );
  // The export is itself a log the check reads (the same datasets once named by the config beside it).
  const stdout = runCli(['export', join(RUN, 'rollout_data/1.pt')]);
  assert.equal(stdout.status, 0);
  assert.equal(stdout.stdout.split('\n').filter(Boolean).length, 24);
});

test('pt CLI: export of a file with a blocked callable writes the samples, names the callable, exits 1', () => {
  const r = runCli(['export', join(repoRoot(), 'test/fixtures/pt/hostile/system.pt')]);
  assert.equal(r.status, 1);
  assert.equal(r.stdout.split('\n').filter(Boolean).length, 4);
  assert.match(r.stderr, /posix\.system.*not run/);
});

test('pt CLI: export usage errors exit 2', () => {
  assert.equal(runCli(['export']).status, 2);
  assert.equal(runCli(['export', 'a.pt', 'b.pt']).status, 2);
  assert.equal(runCli(['check', '--out', 'x', 'a.jsonl']).status, 2);
  assert.equal(runCli(['export', '/nonexistent/x.pt']).status, 2);
});

test('pt engine: a zip64 archive (sizes and offsets in zip64 extra fields, a zip64 end record) reads the same samples', async () => {
  // test/fixtures/pt/zip64.py rewrites rollout_data/1.pt with every zip field in its zip64 form.
  const plainRun = await analyzeFiles([{ path: join(RUN, 'rollout_data/1.pt'), displayPath: '1.pt' }], { ...options, keepDetail: true });
  const zip64Run = await analyzeFiles([{ path: join(repoRoot(), 'test/fixtures/pt/zip64/1.pt'), displayPath: '1.pt' }], { ...options, keepDetail: true });
  const [plain, zip64] = [plainRun.files[0], zip64Run.files[0]];
  const bytes = readFileSync(join(repoRoot(), 'test/fixtures/pt/zip64/1.pt'));
  assert.ok(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06])), 'the fixture has a zip64 end-of-central-directory record');
  assert.equal(zip64.format, 'miles-pt');
  assert.deepEqual(zip64.groups, plain.groups);
  assert.deepEqual(zip64.metrics, plain.metrics);
  assert.deepEqual(zip64Run.findings, plainRun.findings);
  assert.deepEqual(
    zip64.detail!.samples.map((s) => [s.line, s.status, s.reward, s.groupKey, s.cause]),
    plain.detail!.samples.map((s) => [s.line, s.status, s.reward, s.groupKey, s.cause]),
  );
});

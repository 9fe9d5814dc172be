// The built CLI (dist/cli.js, bundled by `npm test` before the tests run) on the example run's
// rollout steps: the text report carries the dropped-groups table, the JSON report the metrics and
// the related lines of group-dropped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { repoRoot } from '../../shared/repoRoot';
import { dropMetrics } from '../../shared/dropMetrics';

const ROOT = repoRoot();

function cli(...args: string[]): string {
  return execFileSync(process.execPath, ['dist/cli.js', 'check', '--config', 'examples/run/rollout-lens.yaml', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

test('CLI text report: the table of dropped groups by cause, metric names and older chart names (fully-async step 2)', () => {
  const text = cli('examples/run/rollout/rollout_2.jsonl');
  const table = [
    'Dropped groups by cause: 8 groups, 5 kept, 3 dropped',
    '  groups  reason                               metric',
    '       1  group_has_aborted_ServerUnreachable  rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable',
    '       1  zero_std_0.2                         rollout/dynamic_filter/drop_zero_std_0.2',
    '       1  zero_std_1                           rollout/dynamic_filter/drop_zero_std_1',
    '  miles main (31f1ca9) logs one counter for every aborted group, whatever its cause: rollout/dynamic_filter/drop_group_has_aborted = 1 (sync), rollout/fully_async/aborted_groups_filtered = 1 (fully async)',
  ].join('\n');
  assert.ok(text.includes(table), text);
  assert.match(text, /^examples\/run\/rollout\/rollout_2\.jsonl:29:1: warning group-dropped: group dropped: group_has_aborted_ServerUnreachable — /m);
});

test('CLI JSON report: drop metrics per file and related lines of a dropped group', () => {
  const report = JSON.parse(cli('--format', 'json', 'examples/run/rollout')) as {
    files: { path: string; groups: object; metrics: Record<string, number> }[];
    findings: { code: string; file: string; line: number; related?: { file: string; line: number }[] }[];
  };
  assert.deepEqual(
    report.files.map((f) => [f.path, f.groups]),
    [
      ['examples/run/rollout/rollout_1.jsonl', { total: 8, kept: 2, dropped: 6 }],
      ['examples/run/rollout/rollout_2.jsonl', { total: 8, kept: 5, dropped: 3 }],
      ['examples/run/rollout/rollout_3.jsonl', { total: 8, kept: 3, dropped: 5 }],
    ],
  );
  const total: Record<string, number> = {};
  for (const f of report.files) for (const [k, v] of Object.entries(dropMetrics(f.metrics))) total[k] = (total[k] ?? 0) + v;
  assert.deepEqual(total, {
    'rollout/dynamic_filter/drop_group_has_aborted_ServerUnreachable': 2,
    'rollout/dynamic_filter/drop_zero_std_1.0': 1,
    'rollout/dynamic_filter/drop_group_has_aborted_SandboxUnavailable': 1,
    'rollout/dynamic_filter/drop_group_has_aborted_unknown': 2,
    'rollout/dynamic_filter/drop_group_has_aborted_TimeLimitExceeded': 1,
    'rollout/dynamic_filter/drop_zero_std_0.0': 2,
    'rollout/dynamic_filter/drop_zero_std_1': 1,
    'rollout/dynamic_filter/drop_zero_std_0.2': 1,
    'rollout/dynamic_filter/drop_group_has_aborted_AgentSetupFailed': 1,
    'rollout/dynamic_filter/drop_group_has_aborted_VerifierError': 1,
    'rollout/dynamic_filter/drop_group_has_aborted_NoModelCalls': 1,
  });
  const dropped = report.findings.find((f) => f.code === 'group-dropped' && f.file.endsWith('rollout_1.jsonl') && f.line === 13);
  assert.deepEqual(
    dropped?.related,
    [14, 15, 16].map((line) => ({ file: 'examples/run/rollout/rollout_1.jsonl', line })),
  );
});

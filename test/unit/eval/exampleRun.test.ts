// The example run through the built CLI (`npm test` builds dist/ first): every finding of the
// evaluation analysis shows up, and `--fix` edits a copy of the eval config in place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = [process.cwd(), join(__dirname, '..', '..', '..', '..')].find((r) => existsSync(join(r, 'examples', 'run', 'eval_config.yaml')))!;
const cli = join(root, 'dist', 'cli.js');

interface JsonFinding {
  code: string;
  severity: string;
  file: string;
  line: number;
  message: string;
  dataset: string | null;
  fix: unknown;
}

function check(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, 'check', ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('example run: every eval finding appears, at the right place, with fix data', { skip: !existsSync(cli) && 'dist/cli.js not built' }, () => {
  const r = check(['--format', 'json', '--config', 'examples/run/rollout-lens.yaml', 'examples/run'], root);
  assert.equal(r.status, 1, r.stderr); // errors present (misgrouped-dataset, eval-all-aborted)
  const findings = (JSON.parse(r.stdout) as { findings: JsonFinding[] }).findings;
  const by = (code: string) => findings.filter((f) => f.code === code);
  const evalFile = 'examples/run/eval/eval_100.jsonl';
  // Found above the eval log (before the settings' evalConfig), named as the log was given.
  const configFile = 'examples/run/eval_config.yaml';

  const passk = by('passk-group-size-mismatch');
  assert.equal(passk.length, 1);
  assert.equal(passk[0].file, evalFile);
  assert.ok(
    passk[0].message.startsWith(
      'pass@k group-size mismatch: dataset aime has 4 samples per prompt but pass@k is grouped by 2: miles main (31f1ca9) reports pass@2 = 0.5 over wrong groups and logs no pass@4',
    ),
  );
  assert.deepEqual(passk[0].fix, { kind: 'set-n-samples-per-eval-prompt', dataset: 'aime', value: 4, configFile: null });

  const mis = by('misgrouped-dataset');
  assert.equal(mis.length, 1);
  assert.deepEqual([mis[0].severity, mis[0].dataset, mis[0].line], ['error', 'gpqa', 15]);
  assert.deepEqual(mis[0].fix, { kind: 'set-n-samples-per-eval-prompt', dataset: 'gpqa', value: 3, configFile });

  assert.deepEqual(
    by('none-reward').map((f) => f.message),
    ['1 of 12 attempts of dataset gpqa have no reward (likely errored/aborted trials); they are scored 0'],
  );
  assert.deepEqual(
    by('eval-all-aborted').map((f) => [f.dataset, f.line]),
    [['swe_verified', 25]],
  );
  assert.deepEqual(
    by('denominator-inflation')
      .map((f) => f.file)
      .sort(),
    ['examples/run/verl/rollout/12.jsonl', 'examples/run/verl/validation/12.jsonl'],
  );
  const mm = by('metric-mismatch');
  assert.deepEqual(
    mm.map((f) => [f.file, f.line, f.dataset]),
    [
      ['examples/run/metrics.jsonl', 1, 'aime'],
      ['examples/run/metrics.jsonl', 1, 'gpqa'],
    ],
  );
  assert.ok(mm[0].message.endsWith("the logged value is pass@k grouped by the global n_samples_per_eval_prompt (2), not the dataset's own (4)"));

  const files = (JSON.parse(r.stdout) as { files: { path: string; metrics: Record<string, number> }[] }).files;
  const evalMetrics = files.find((f) => f.path === evalFile)!.metrics;
  assert.equal(evalMetrics['eval/swe_verified'], 0);
  assert.equal(evalMetrics['eval/swe_verified-none_reward_ratio'], 1);
  assert.equal(files.find((f) => f.path === 'examples/run/verl/rollout/12.jsonl')!.metrics['critic/score/mean'], 6 / 13);
});

test(
  'rollout-lens check → --fix → check on a copy of the example run reaches a fixed point: only the fixed value changes, nothing left to edit, a third run changes nothing',
  { skip: !existsSync(cli) && 'dist/cli.js not built' },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'rl-example-'));
    cpSync(join(root, 'examples', 'run'), join(dir, 'run'), { recursive: true });
    const configPath = join(dir, 'run', 'eval_config.yaml');
    const before = readFileSync(configPath, 'utf8');
    const args = ['--config', 'run/rollout-lens.yaml', 'run'];
    const findingsOf = (stdout: string) => (JSON.parse(stdout) as { findings: JsonFinding[] }).findings;

    const first = findingsOf(check(['--format', 'json', ...args], dir).stdout);
    const r = check(['--fix', ...args], dir);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /--fix applied: .*eval_config\.yaml: set n_samples_per_eval_prompt of dataset gpqa to 3 \(was 2\)/);
    const after = readFileSync(configPath, 'utf8');
    const a = before.split('\n');
    const b = after.split('\n');
    assert.equal(a.length, b.length);
    const changed = a.map((line, i) => [line, b[i]]).filter(([x, y]) => x !== y);
    assert.deepEqual(changed, [
      [
        '      n_samples_per_eval_prompt: 2   # edited after the run; the logged eval used 3',
        '      n_samples_per_eval_prompt: 3   # edited after the run; the logged eval used 3',
      ],
    ]);
    // pass@k advice names the flag at the n the log and the config agree on, never a config edit.
    const advice = r.stdout.split('\n').filter((l) => l.startsWith('--fix advice:'));
    assert.deepEqual(advice, [
      "--fix advice: not applied to dataset aime: miles main (31f1ca9) groups every dataset's pass@k by --n-samples-per-eval-prompt; run it with --n-samples-per-eval-prompt 4, the n its eval config sets for it (no file to edit)",
    ]);

    // Checked again: gpqa is no longer misgrouped, and its pass@k grouped by the global 2 equals its
    // own by 3 within 1e-12 (0.5833333333333334 vs 0.5833333333333333), so no pass@k finding appears.
    const second = findingsOf(check(['--format', 'json', ...args], dir).stdout);
    assert.deepEqual(
      first.filter((f) => f.fix !== null).map((f) => f.code + ' ' + f.dataset),
      ['passk-group-size-mismatch aime', 'misgrouped-dataset gpqa'],
    );
    assert.deepEqual(
      second.filter((f) => f.fix !== null).map((f) => f.code + ' ' + f.dataset),
      ['passk-group-size-mismatch aime'],
    );
    // No fixable finding left: no fix names a file to edit, and a second --fix edits nothing.
    assert.deepEqual(
      second.filter((f) => (f.fix as { configFile: string | null } | null)?.configFile != null),
      [],
    );
    const again = check(['--fix', ...args], dir);
    assert.deepEqual(
      again.stdout.split('\n').filter((l) => l.startsWith('--fix')),
      advice,
    );
    assert.equal(readFileSync(configPath, 'utf8'), after);
    const third = findingsOf(check(['--format', 'json', ...args], dir).stdout);
    assert.deepEqual(third, second);
  },
);

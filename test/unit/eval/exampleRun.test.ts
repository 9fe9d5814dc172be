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
      'pass@k group-size mismatch: dataset aime has 4 samples per prompt but pass@k is grouped by 2: miles main (31f1ca9) reports pass@1 = 0.3333333333333333, pass@2 = 0.5 over wrong groups',
    ),
  );
  assert.deepEqual(passk[0].fix, { kind: 'set-n-samples-per-eval-prompt', dataset: 'aime', value: 2, configFile });

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
  'rollout-lens check --fix on a copy of the example run: only the fixed values change in eval_config.yaml',
  { skip: !existsSync(cli) && 'dist/cli.js not built' },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'rl-example-'));
    cpSync(join(root, 'examples', 'run'), join(dir, 'run'), { recursive: true });
    const before = readFileSync(join(dir, 'run', 'eval_config.yaml'), 'utf8');
    const r = check(['--fix', '--config', 'run/rollout-lens.yaml', 'run'], dir);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /--fix applied: .*eval_config\.yaml: set n_samples_per_eval_prompt of dataset gpqa to 3 \(was 2\)/);
    const after = readFileSync(join(dir, 'run', 'eval_config.yaml'), 'utf8');
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
    assert.match(
      r.stdout,
      /--fix advice: not applied to dataset aime: miles main \(31f1ca9\) groups pass@k by --n-samples-per-eval-prompt; run miles with --n-samples-per-eval-prompt 4, or set its n_samples_per_eval_prompt to 2 in \S+eval_config\.yaml for the next eval \(the checked log was made with 4 per prompt\)/,
    );
    // Checked again: gpqa is no longer misgrouped; nothing new appears (the fixes agree with the log).
    const again = check(['--format', 'json', '--config', 'run/rollout-lens.yaml', 'run'], dir);
    const findings = (JSON.parse(again.stdout) as { findings: JsonFinding[] }).findings;
    assert.equal(
      findings.some((f) => f.code === 'misgrouped-dataset'),
      false,
    );
    assert.deepEqual(
      findings.filter((f) => f.code === 'passk-group-size-mismatch').map((f) => f.dataset),
      ['aime', 'gpqa'],
    );
  },
);

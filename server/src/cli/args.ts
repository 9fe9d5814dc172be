// Command-line arguments of `rollout-lens check`, validated with readable messages.
import { parseArgs } from 'node:util';

import type { RolloutLensSettings } from '../../../shared/protocol';

export const USAGE = `usage: rollout-lens check [options] <path>...
       rollout-lens report [options] --out <file.html> <path>...
       rollout-lens export <file.pt> [--out <file.jsonl>] [--tensors summary|values]
       rollout-lens inspect [options] <file> <line>
       rollout-lens summarize|diff|prompts …  (rollout-lens diff --help)

check: checks RL rollout and eval logs (JSONL from miles and verl, miles' .pt dumps): re-runs the
framework's filter and metric logic and reports findings. <path> is a file, or a folder searched
recursively for *.jsonl / *.ndjson / *.pt (miles' torch.save dumps, read without running anything).
report: the same analysis as one self-contained HTML file to share (charts per step of dropped groups
by cause, eval pass@k, the first samples of each cause, the findings by code with their messages;
paths relative to the <path> given); no network needed to open it.
export: writes a .pt dump's samples as JSON Lines, one sample a line (tensors and arrays as
{"$tensor": {dtype, shape}} placeholders; with --tensors values, tensors as tensor.tolist() gives
them), to --out or stdout. A .pt whose root is not a list of samples (train_data) is one line.
inspect: what the analysis knows about the sample on <line> (1-based) of <file>: its group and
what the filters did to it, the metric it counts in, its cause, and a failure's message.

options:
  --format text|json                  output format (default text)
  --config <file>                     run settings, JSON or YAML, same keys as the editor settings
                                      (default: the rollout-lens.yaml/.yml/.json nearest above each log)
  --eval-config <file>                miles eval config (YAML or JSON)
  --n-samples-per-prompt <n>          training samples per prompt (enables the group-size check)
  --n-samples-per-eval-prompt <n>     global eval samples per prompt (miles default: 1)
  --dynamic-filter none|check_reward_nonzero_std   (default none)
  --reward-key <k>                    key of an object reward
  --eval-reward-key <k>               key of an object reward in eval logs (default: --reward-key)
  --tokenizer <path>                  the run's Hugging Face tokenizer.json, or the checkpoint folder
                                      holding it: tokens listed with their text, not only their id
  --framework auto|miles|slime|verl   narrow format detection; slime: judge miles-style sample
                                      dumps by slime's rules (default auto: detected per file)
  --fix                               apply the findings' fixes to the eval config
  --exit-zero                         check: exit 0 even when there are error findings
  --progress                          print per-file progress on stderr (default: only on a terminal)
  --jobs <n>                          scan threads for files of 64 MB and more whose lines average 16 KB
                                      or more (shorter lines are faster on one thread) (default: 1 below
                                      4 cores, else the cores, at most 4, while a core is idle; 1: no workers,
                                      not even the thread that shares miles' has_repetition compression)
  --out <file>                        report: the HTML file to write
  --samples-per-cause <n>             report: samples listed per drop reason (default 20)
  -h, --help                          this help
  --version                           print the version

exit status: check, export, inspect: 0 no finding of severity error; 1 at least one; 2 bad usage or
unreadable input. report: 0 once the file is written (whatever its findings); 1 it is not (bad usage,
nothing to read, cannot write).`;

export interface CheckArgs {
  paths: string[];
  format: 'text' | 'json';
  config: string | null;
  evalConfig: string | null;
  fix: boolean;
  exitZero: boolean;
  /** Per-file progress on stderr even when it is not a terminal. */
  progress: boolean;
  /** Scan worker threads for big files; null: the default (cores, at most 4). 1: single-threaded. */
  jobs: number | null;
  /** Settings given as flags (they override `--config`). */
  overrides: Partial<RolloutLensSettings>;
}

export interface ReportArgs extends CheckArgs {
  out: string;
  samplesPerCause: number | null;
}

/** `inspect`: one file (in `paths`) and a 1-based line. */
export interface InspectArgs extends CheckArgs {
  line: number;
}

export type ParsedCommand =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'check'; args: CheckArgs }
  | { kind: 'report'; args: ReportArgs }
  | { kind: 'export'; file: string; out: string | null; tensors: 'summary' | 'values' }
  | { kind: 'inspect'; args: InspectArgs };

export class UsageError extends Error {}

function positiveInt(flag: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag}: expected a whole number of at least 1, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`${flag}: expected one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}

/** Parses `argv` (without node and script). Throws `UsageError` with a one-line reason. */
export function parseCommand(argv: string[]): ParsedCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        format: { type: 'string' },
        config: { type: 'string' },
        'eval-config': { type: 'string' },
        'n-samples-per-prompt': { type: 'string' },
        'n-samples-per-eval-prompt': { type: 'string' },
        'dynamic-filter': { type: 'string' },
        'reward-key': { type: 'string' },
        'eval-reward-key': { type: 'string' },
        tokenizer: { type: 'string' },
        framework: { type: 'string' },
        fix: { type: 'boolean' },
        'exit-zero': { type: 'boolean' },
        progress: { type: 'boolean' },
        jobs: { type: 'string' },
        out: { type: 'string' },
        tensors: { type: 'string' },
        'samples-per-cause': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
  const { values: v, positionals } = parsed;
  if (v.help) return { kind: 'help' };
  if (v.version) return { kind: 'version' };
  const [command, ...paths] = positionals;
  if (command === undefined) throw new UsageError('missing command: check, report or export');
  if (command === 'export') {
    if (paths.length !== 1) throw new UsageError('export: give exactly one <file.pt>');
    if (v.out === '') throw new UsageError('--out: must not be empty');
    const tensors = v.tensors ?? 'summary';
    if (tensors !== 'summary' && tensors !== 'values') throw new UsageError(`--tensors: expected summary or values, got ${JSON.stringify(tensors)}`);
    return { kind: 'export', file: paths[0], out: v.out ?? null, tensors };
  }
  if (v.tensors !== undefined) throw new UsageError('--tensors: only for export');
  if (command !== 'check' && command !== 'report' && command !== 'inspect') {
    throw new UsageError(`unknown command ${JSON.stringify(command)} (expected: check, report, export, inspect, summarize, diff or prompts)`);
  }
  if (paths.length === 0) throw new UsageError(`${command}: no <path> given`);
  if (command === 'inspect') {
    if (paths.length !== 2) throw new UsageError('inspect: give one <file> and one <line>');
    for (const flag of ['out', 'samples-per-cause', 'format', 'fix'] as const) {
      if (v[flag] !== undefined) throw new UsageError(`--${flag}: not for inspect`);
    }
  } else if (command === 'check') {
    if (v.out !== undefined) throw new UsageError('--out: only for report or export');
    if (v['samples-per-cause'] !== undefined) throw new UsageError('--samples-per-cause: only for report');
  } else {
    if (v.out === undefined || v.out === '') throw new UsageError('report: --out <file.html> is required');
    if (v.format !== undefined) throw new UsageError('--format: only for check');
    if (v.fix) throw new UsageError('--fix: only for check');
  }

  const overrides: Partial<RolloutLensSettings> = {};
  if (v['n-samples-per-prompt'] !== undefined) overrides.nSamplesPerPrompt = positiveInt('--n-samples-per-prompt', v['n-samples-per-prompt']);
  if (v['n-samples-per-eval-prompt'] !== undefined) {
    overrides.nSamplesPerEvalPrompt = positiveInt('--n-samples-per-eval-prompt', v['n-samples-per-eval-prompt']);
  }
  if (v['dynamic-filter'] !== undefined) {
    overrides.dynamicFilter = oneOf('--dynamic-filter', v['dynamic-filter'], ['none', 'check_reward_nonzero_std'] as const);
  }
  if (v.framework !== undefined) overrides.framework = oneOf('--framework', v.framework, ['auto', 'miles', 'slime', 'verl'] as const);
  for (const [flag, key] of [
    ['reward-key', 'rewardKey'],
    ['eval-reward-key', 'evalRewardKey'],
    ['tokenizer', 'tokenizer'],
  ] as const) {
    const value = v[flag];
    if (value === undefined) continue;
    if (value === '') throw new UsageError(`--${flag}: must not be empty`);
    overrides[key] = value;
  }
  const args: CheckArgs = {
    paths,
    format: v.format === undefined ? 'text' : oneOf('--format', v.format, ['text', 'json'] as const),
    config: v.config ?? null,
    evalConfig: v['eval-config'] ?? null,
    fix: v.fix ?? false,
    exitZero: v['exit-zero'] ?? false,
    progress: v.progress ?? false,
    jobs: v.jobs === undefined ? null : positiveInt('--jobs', v.jobs),
    overrides,
  };
  if (command === 'check') return { kind: 'check', args };
  if (command === 'inspect') return { kind: 'inspect', args: { ...args, paths: [paths[0]], line: positiveInt('inspect: <line>', paths[1]) } };
  const samplesPerCause = v['samples-per-cause'] === undefined ? null : positiveInt('--samples-per-cause', v['samples-per-cause']);
  return { kind: 'report', args: { ...args, out: v.out!, samplesPerCause } };
}

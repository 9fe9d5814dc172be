// Command-line arguments of `rollout-lens summarize`, `diff` and `prompts`. Their own flags are
// taken here; the rest are `check`'s (settings, --config, --jobs …), parsed by `parseCommand`, so
// a run folder is analysed the same way by every command.
import { type Alignment, DEFAULT_MAX_PROMPTS } from '../core/compare/diff';
import { DEFAULT_RESAMPLES } from '../core/compare/bootstrap';

import { type CheckArgs, parseCommand, UsageError } from './args';

export const COMPARE_USAGE = `usage: rollout-lens summarize [check options] <path>... [--out <run.summary.json>]
       rollout-lens summarize --merge <a.summary.json> <b.summary.json>... [--out <all.summary.json>]
       rollout-lens diff [options] <baseline> <candidate> [--out <diff.html>]
       rollout-lens prompts [check options] <run|summary> [--prompt <id>] [--format text|json]

summarize: the run's summary (JSON, docs/compare.md): per step its groups by verdict and cause,
reward sums, eval datasets with per-prompt counts, per prompt its state. --merge: the summary of
the union of shards' summaries, exactly the summary of the whole run.
diff: what changed from <baseline> to <candidate>, each a run folder, a log file or a summary
(*.json): drop rates by cause, eval score and pass@k with 95% paired bootstrap intervals, prompts
that flipped, denominators that shrank. --out: also write the diff as one self-contained HTML file.
prompts: each rollout prompt's groups across the steps (kept or the drop reason), its first solved
step, regressions, steps dropped and the response tokens of its groups that gave no gradient; and
the run's prompts never learned, solved and still sampled, and that waste.

diff options:
  --align first|last <n>   pair the first (last) <n> steps of each kind by position (default: by step number)
  --gate                   exit 1 when a rule of \`gate:\` in the settings file (or its default) fails
  --format text|json       output format (default text)
  --seed <n>               the bootstrap's seed (default 0)
  --resamples <n>          bootstrap resamples (default ${DEFAULT_RESAMPLES})
  --max-prompts <n>        flipped prompts listed (default ${DEFAULT_MAX_PROMPTS})
  --out <diff.html>        also write the diff as a self-contained HTML file (charts of both runs)
  and check's options (--config, --n-samples-per-prompt, …) for the runs given as folders or logs

prompts options:
  --prompt <id>            only this prompt's history (exit 2 when the run has no such prompt)
  --format text|json       output format (default text)

exit status: 0 reported (or the gate passed); 1 the gate failed; 2 bad usage or unreadable input`;

export interface SummarizeArgs {
  /** The analysis's arguments (paths, settings); paths are summaries with --merge. */
  check: CheckArgs;
  merge: boolean;
  out: string | null;
}

export interface DiffArgs {
  check: CheckArgs;
  baseline: string;
  candidate: string;
  align: Alignment;
  gate: boolean;
  seed: number;
  resamples: number;
  maxPrompts: number;
  /** `--out`: the HTML file also written; null: none. */
  out: string | null;
}

export interface PromptsArgs {
  check: CheckArgs;
  /** A run folder, a log or a summary. */
  run: string;
  prompt: string | null;
}

export type CompareCommand =
  { kind: 'compare-help' } | { kind: 'summarize'; args: SummarizeArgs } | { kind: 'diff'; args: DiffArgs } | { kind: 'prompts'; args: PromptsArgs };

function wholeNumber(flag: string, value: string | undefined, min: number): number {
  if (value === undefined || !/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag}: expected a whole number of at least ${min}, got ${JSON.stringify(value ?? '')}`);
  }
  return Number(value);
}

/** Takes `--flag value` (or `--flag=value`) out of `argv`; the last one wins. */
function takeValue(argv: string[], flag: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length;) {
    if (argv[i] === flag) {
      if (i + 1 >= argv.length) throw new UsageError(`${flag}: missing value`);
      value = argv[i + 1];
      argv.splice(i, 2);
    } else if (argv[i].startsWith(`${flag}=`)) {
      value = argv[i].slice(flag.length + 1);
      argv.splice(i, 1);
    } else i++;
  }
  return value;
}

function takeSwitch(argv: string[], flag: string): boolean {
  const at = argv.indexOf(flag);
  if (at < 0) return false;
  argv.splice(at, 1);
  return true;
}

function takeOut(argv: string[]): string | null {
  const out = takeValue(argv, '--out') ?? null;
  if (out === '') throw new UsageError('--out: must not be empty');
  return out;
}

/** `summarize …`, `diff …` or `prompts …` (the command first); null for other commands. */
export function parseCompareCommand(argv: readonly string[]): CompareCommand | null {
  const [command, ...rest] = argv;
  if (command !== 'summarize' && command !== 'diff' && command !== 'prompts') return null;
  const args = [...rest];
  if (args.includes('--help') || args.includes('-h')) return { kind: 'compare-help' };
  if (command === 'prompts') {
    const prompt = takeValue(args, '--prompt') ?? null;
    if (prompt === '') throw new UsageError('--prompt: must not be empty');
    const parsed = parseCommand(['check', ...args]);
    if (parsed.kind !== 'check') return null;
    if (parsed.args.fix) throw new UsageError('--fix: only for check');
    if (parsed.args.paths.length !== 1) throw new UsageError(`prompts: give one <run> or summary (got ${parsed.args.paths.length} paths)`);
    return { kind: 'prompts', args: { check: parsed.args, run: parsed.args.paths[0], prompt } };
  }
  if (command === 'summarize') {
    const out = takeOut(args);
    const merge = takeSwitch(args, '--merge');
    const parsed = parseCommand(['check', ...args]);
    if (parsed.kind !== 'check') return null;
    if (parsed.args.format !== 'text' || args.includes('--format')) throw new UsageError('--format: summarize writes JSON');
    if (parsed.args.fix) throw new UsageError('--fix: only for check');
    return { kind: 'summarize', args: { check: parsed.args, merge, out } };
  }
  let align: Alignment = { mode: 'number' };
  const at = args.indexOf('--align');
  if (at >= 0) {
    const mode = args[at + 1];
    if (mode !== 'first' && mode !== 'last') throw new UsageError(`--align: expected first or last, got ${JSON.stringify(mode ?? '')}`);
    align = { mode, count: wholeNumber('--align', args[at + 2], 1) };
    args.splice(at, 3);
  }
  const gate = takeSwitch(args, '--gate');
  const seedText = takeValue(args, '--seed');
  const resamplesText = takeValue(args, '--resamples');
  const maxText = takeValue(args, '--max-prompts');
  const out = takeOut(args);
  const parsed = parseCommand(['check', ...args]);
  if (parsed.kind !== 'check') return null;
  if (parsed.args.fix) throw new UsageError('--fix: only for check');
  if (parsed.args.paths.length !== 2) throw new UsageError(`diff: give one <baseline> and one <candidate> (got ${parsed.args.paths.length} paths)`);
  const [baseline, candidate] = parsed.args.paths;
  return {
    kind: 'diff',
    args: {
      check: parsed.args,
      baseline,
      candidate,
      align,
      gate,
      seed: seedText === undefined ? 0 : wholeNumber('--seed', seedText, 0),
      resamples: resamplesText === undefined ? DEFAULT_RESAMPLES : wholeNumber('--resamples', resamplesText, 1),
      maxPrompts: maxText === undefined ? DEFAULT_MAX_PROMPTS : wholeNumber('--max-prompts', maxText, 0),
      out,
    },
  };
}

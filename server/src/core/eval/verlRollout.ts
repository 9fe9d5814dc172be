// verl training metrics from a rollout dump (`trainer.rollout_data_dir/<step>.jsonl`): verl leaves
// rows with an empty response (`response_length == 0`) out of `critic/score/*` and reports their
// share as `response/aborted_ratio` (docs/semantics.md#denominator-inflation). The dump's quirks
// (DAPO's raw score column, end-token-only responses, v1 sessions and batch padding) are in
// docs/framework-files.md#verl.
import { pyFloatRepr } from '../vocabulary/python';
import type { Finding, Location, SampleRecord } from '../vocabulary/types';
import { makeFinding } from './findings';
import { npMean } from './numeric';
import { type EmptyRowRanges, emptyRowRanges, rangesText } from './verlEmptyRows';
import { type ScoreSource, verlScore } from './verlRows';

export interface VerlRolloutResult {
  metrics: Record<string, number>;
  /**
   * What the dump allows verl's own figures to be, when it has empty outputs (aborted or only an
   * end token: verlEmptyRows.ts); `metrics` holds the figures with every empty row aborted.
   */
  ranges: EmptyRowRanges;
  /** The mean score over every row, aborted ones included (a null score counts 0). */
  allAttemptsScoreMean: number;
  /** Which column `critic/score/*` were recomputed from (the first row's; see verlScore). */
  scoreSource: ScoreSource | null;
  findings: Finding[];
}

/**
 * `compute_data_metrics` (the training metrics) counts every row of the step's batch: in v1 dumps
 * every output of a multi-output session too, unlike validation, which keeps a session's last
 * output. verl's padding rows are not samples (the reader drops them).
 */
export function analyzeVerlRollout(file: string, all: readonly SampleRecord[]): VerlRolloutResult {
  const samples = all.slice();
  const total = samples.length;
  const kept: number[] = [];
  const aborted: SampleRecord[] = [];
  const scores = samples.map((s) => verlScore(s));
  samples.forEach((s, i) => {
    if (s.aborted) aborted.push(s);
    else kept.push(scores[i].value ?? 0);
  });
  const metrics: Record<string, number> = {};
  if (total === 0) return { metrics, ranges: {}, allAttemptsScoreMean: NaN, scoreSource: null, findings: [] };
  const scoreSource = scores[0].source;
  // Exact float64 figures; verl's own are float32 (compare at 1e-6, docs/semantics.md#logged-vs-recomputed).
  metrics['critic/score/mean'] = npMean(kept);
  if (kept.length > 0) {
    metrics['critic/score/max'] = kept.reduce((a, b) => (b > a || Number.isNaN(b) ? b : a));
    metrics['critic/score/min'] = kept.reduce((a, b) => (b < a || Number.isNaN(b) ? b : a));
  }
  metrics['response/aborted_ratio'] = aborted.length / total;
  const allAttemptsScoreMean = npMean(scores.map((s) => s.value ?? 0));
  const findings: Finding[] = [makeFinding('verl-not-recomputed', { file, line: samples[0].line, dataset: null }, NOT_RECOMPUTED)];
  if (scoreSource === 'score + overlong_reward') {
    findings.push(makeFinding('verl-score-source', { file, line: samples[0].line, dataset: null }, dapoScoreMessage()));
  }
  const reported = metrics['critic/score/mean'];
  let ranges: EmptyRowRanges = {};
  if (aborted.length > 0) {
    ranges = emptyRowRanges(
      kept,
      samples.flatMap((s, i) => (s.aborted ? [scores[i].value ?? 0] : [])),
    );
    // The figure with every empty row aborted is one of the choices: in its range to the last bit.
    const mean = ranges['critic/score/mean'];
    if (mean !== undefined && kept.length > 0) ranges['critic/score/mean'] = { least: Math.min(mean.least, reported), most: Math.max(mean.most, reported) };
    const related = aborted.slice(1, 21).map((s): Location => ({ file, line: s.line }));
    findings.push(
      makeFinding(
        'denominator-inflation',
        { file, line: aborted[0].line, dataset: null, related },
        rolloutInflationMessage(reported, aborted.length, total, allAttemptsScoreMean, ranges),
      ),
    );
  }
  return { metrics, ranges, allAttemptsScoreMean, scoreSource, findings };
}

/** What compute_data_metrics logs that the dump cannot give (token counts, advantages, token-level rewards). */
const NOT_RECOMPUTED =
  "verl's compute_data_metrics also logs critic/rewards/*, critic/advantages/*, critic/returns/*, response_length/*, response_length_non_aborted/*, prompt_length/* (with a critic also critic/values/* and critic/vf_explained_var): the rollout dump holds no token counts, advantages, returns or values, and its score is the token-level score, not the reward (they differ when the KL penalty is in the reward), so only critic/score/* and response/aborted_ratio are recomputed";

function dapoScoreMessage(): string {
  return 'critic/score/* recomputed from score + overlong_reward: the reward function returned its own score (DAPO), so the dumped score is the raw score and the trained one adds overlong_reward';
}

/** Why the dump gives ranges: an end-token-only response decodes to "" like an aborted one, but verl does not mask it. */
const END_TOKEN_NOTE =
  'an empty output is either an aborted response (response_length 0, which verl leaves out of critic/score/* and counts in response/aborted_ratio) or a response of only an end token (response_length 1, which verl counts as not aborted), and the dump cannot tell them apart';

/**
 * What verl's compute_data_metrics does with a step whose every response is empty, run, not read
 * (docs/framework-files.md, "Random cases against the frameworks' functions").
 */
const ALL_EMPTY_IN_VERL =
  "verl-project/verl 1dda039 logs critic/score/* as nan; volcengine/verl b178a3c raises RuntimeError: max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.";

function rolloutInflationMessage(reported: number, aborted: number, total: number, allAttempts: number, ranges: EmptyRowRanges): string {
  const ratio = pyFloatRepr(aborted / total);
  const range = rangesText(ranges);
  const inRanges = range === '' ? '' : `, so verl's own figures lie in these ranges: ${range}`;
  if (aborted === total) {
    return `critic/score/mean has no row to average if all ${total} rows with empty output were aborted (response/aborted_ratio = ${ratio}; ${ALL_EMPTY_IN_VERL}); over all ${total} attempts the mean score is ${pyFloatRepr(allAttempts)}; ${END_TOKEN_NOTE}${inRanges}`;
  }
  const leaves =
    reported === allAttempts ? `, the same as over all ${total} attempts` : `; over all ${total} attempts the mean score is ${pyFloatRepr(allAttempts)}`;
  return `critic/score/mean = ${pyFloatRepr(reported)} leaves out ${aborted} of ${total} rows with empty output (response/aborted_ratio = ${ratio})${leaves}; ${END_TOKEN_NOTE}${inRanges}`;
}

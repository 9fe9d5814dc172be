// The sample view model: one sample as the sample view panel shows it, built by
// server/src/core/views/sampleView.ts from the inspection facade (core/inspect.ts) and the
// sample's line. Long strings are clipped and long arrays summarised, so a 50 MB line gives a
// model of a few hundred KB. Every string comes from a log: render it as text only.
import type { TokenizerNote } from './runViewModel';

/** A string from the log, clipped; `length` is the full length in characters when clipped. */
export interface Clip {
  text: string;
  length?: number;
}

export interface ToolCall {
  id: string | null;
  name: string | null;
  arguments: Clip | null;
}

export interface MessageView {
  role: string;
  content: Clip | null;
  /** Name of the tool a `tool` message answers, or the speaker's name. */
  name: string | null;
  toolCalls: ToolCall[];
  /** The call a tool result answers. */
  toolCallId: string | null;
}

export interface SiblingView {
  /** 1-based; null: this file has no line for it (see `missingFrom`). */
  line: number | null;
  index: number | null;
  status: string | null;
  reward: number | null;
  cause: string | null;
  aborted: boolean;
  current: boolean;
  /** A member this file lacks (a trajectory sidecar's sample aborted before any model call): the file that has it and its 1-based line there. */
  missingFrom: { file: string; line: number } | null;
  /**
   * A member this file has but the step's trajectory sidecar lacks (a `.pt` sample aborted before any
   * model call: miles writes it no row): the sidecar's name. Its status and cause are this file's.
   */
  missingIn: string | null;
}

/** A JSON value as a collapsible tree: objects and arrays list their first entries. */
export type TreeValue =
  | { kind: 'scalar'; text: string; type: 'string' | 'number' | 'boolean' | 'null' }
  | { kind: 'object'; entries: [string, TreeValue][]; more: number }
  | { kind: 'array'; items: TreeValue[]; length: number }
  | { kind: 'skipped'; text: string };

/** A token of the worst |Δ| along a sample's response. */
export interface MismatchToken {
  /** Position in the response (0 = its first token). */
  position: number;
  /** The token id (miles' Sample, main 31f1ca9, holds ids, no per-token text). */
  token: number | null;
  /** Its text from the run's tokenizer (`tokenizer` setting), escaped to be visible (`\n`, `\xE8`); null without one. Text only. */
  text: string | null;
  rolloutLogProb: number;
  trainLogProb: number;
  /** Trainer − rollout log-prob, in float32 as miles' loss takes it. */
  delta: number;
}

/** One sample's rollout and trainer log-probs from its step's train_data (core/train/sampleMismatch.ts). */
export interface SampleMismatch {
  /** The step's train_data files that hold the sample. */
  files: string[];
  /** The sample's `Sample.index` (train_data's `sample_indices`). */
  sampleIndex: number;
  responseLength: number;
  /** Positions after the first MAX_MISMATCH_POSITIONS, not sent. */
  positionsOmitted: number;
  /** False when the train_data holds no trainer `log_probs` (the actor had not computed them at the dump). */
  hasTrainLogProbs: boolean;
  /** Per response position; null where no rank's slice holds it. */
  rolloutLogProbs: (number | null)[];
  trainLogProbs: (number | null)[];
  /** 1: counted by the loss; 0: masked (outside the loss, e.g. a tool's output). */
  lossMask: (number | null)[];
  /** Trainer − rollout where the loss mask is 1; null where masked, missing or not finite. */
  delta: (number | null)[];
  /** Positions in the loss mask where either log-prob is NaN or infinite. */
  nonFinitePositions: number[];
  /** The response's token ids (the last `responseLength` of train_data's `tokens`), when held. */
  tokens: (number | null)[] | null;
  /** Each position's token text from the run's tokenizer, as `MismatchToken.text`; null without a tokenizer. */
  tokenTexts: (string | null)[] | null;
  /** The tokenizer the texts come from (its tokenizer.json as the view names files, its decoder's kinds, where it was found); null: none found. */
  tokenizer: TokenizerNote | null;
  /** Why no tokenizer gave texts (the setting cannot be read, not a tokenizer.json, a checkpoint not followed). */
  tokenizerProblem: string | null;
  /** Tokens in the loss mask with a finite Δ, and those outside the mask. */
  lossTokens: number;
  outsideMask: number;
  /** Mean and max |Δ| over the loss-mask tokens; null when none. */
  mean: number | null;
  max: number | null;
  worstTokens: MismatchToken[];
}

export interface SampleView {
  version: 1;
  /** Display path (relative to its workspace folder) and 1-based line (sample N of a `.pt`). */
  file: string;
  line: number;
  /** The file and the sample, as the view's title names them: `rollout_data/1.pt · sample 5`, `rollout_1.jsonl:13`. */
  title: string;
  format: string;
  kind: string;
  status: string | null;
  aborted: boolean;
  reward: number | null;
  /** Named rewards when the reward is an object. */
  rewards: Record<string, number | null> | null;
  label: Clip | null;
  index: number | null;
  group: string | null;
  step: number | null;
  dataset: string | null;
  /** The prompt as a conversation (a string prompt is one user message), then `messages` of the sample. */
  prompt: MessageView[];
  conversation: MessageView[];
  /** Where the conversation was read when not from the sample's own line (a miles trajectory sidecar row). */
  conversationSource: { file: string; line: number } | null;
  /** Why a `.pt` sample has no conversation: its trajectory sidecar has no row for it. */
  conversationMissing: string | null;
  /** Null: the line records no response (empty or absent). */
  response: Clip | null;
  /** What stands in for a response the sample did not write: `(no output: aborted)`; never log text. */
  responseNote: string | null;
  /** What happened to it: the group's verdict (rollout) or the pass@k group (eval). */
  verdict:
    | {
        kind: 'rollout';
        kept: boolean;
        reason: string | null;
        droppedBy: 'aborted-group' | 'reward-std' | null;
        metric: string | null;
        formerly: { name: string; mode: string }[];
        /** Line of the member whose cause names the drop. */
        namedBy: number | null;
      }
    | { kind: 'eval'; dataset: string; n: number; nSource: string; groupIndex: number | null }
    | null;
  cause: { name: string; class: 'infrastructure' | 'policy' | 'scored' | 'unclassified' } | null;
  /** A failure message the line records (`metadata.error`, ...). */
  failure: { field: string; text: string } | null;
  siblings: SiblingView[];
  siblingsOmitted: number;
  tokens: {
    responseLength: number | null;
    tokens: number | null;
    lossMask: { length: number; ones: number; coverage: number | null } | null;
    logProbs: { count: number; mean: number | null; min: number | null; max: number | null; points: number[] } | null;
  };
  weightVersions: { values: string[]; distinct: string[]; mixed: boolean } | null;
  metadata: TreeValue | null;
  /** Its step's train_data, when the run has one holding this sample (absent: none). */
  trainMismatch?: SampleMismatch | null;
  /** The record as JSON with long strings clipped and long arrays cut (for the raw toggle). */
  raw: string;
  rawClipped: boolean;
  /** Why parts are missing (the line could not be re-read, it is too long, ...). */
  unavailable: string | null;
}

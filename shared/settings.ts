// The run settings as the editor sends them and the engine reads them: their type and defaults.
// They are on the wire (workspace/configuration, the client's defaults), so shared/ defines them
// and the engine imports them (core/vocabulary/settings.ts), never the other way round; the CLI's `--config`
// file takes the same keys, and core/vocabulary/settingsSchema.ts validates them. No zod here, so the
// client's bundle stays small.

/** Settings, per resource (section `rolloutLens`). The CLI's `--config` file takes the same keys. */
export interface RolloutLensSettings {
  /** Key of an object reward to score with (docs/semantics.md#reward-value). */
  rewardKey: string | null;
  /** Key for eval rewards; falls back to `rewardKey`. */
  evalRewardKey: string | null;
  /** Training `--n-samples-per-prompt`; enables the incomplete-group check. */
  nSamplesPerPrompt: number | null;
  /** Global `--n-samples-per-eval-prompt` (miles defaults it to 1). */
  nSamplesPerEvalPrompt: number | null;
  dynamicFilter: 'none' | 'check_reward_nonzero_std';
  framework: 'auto' | 'miles' | 'slime' | 'verl';
  /** miles eval config (YAML or JSON); else one found beside the log or at the workspace root. */
  evalConfig: string | null;
  /** Extra infrastructure causes (added to the built-in list, docs/semantics.md#failure-causes). */
  infraCauses: string[];
  /** Extra policy causes (added to the built-in list, docs/semantics.md#failure-causes). */
  policyCauses: string[];
  /** Field mapping for the `generic` format: JSON pointers such as `/meta/group`. */
  fields: GenericFieldMap;
  /** Most diagnostics per file; one summary diagnostic says how many more there are. */
  maxProblems: number;
  /**
   * The run's Hugging Face tokenizer: its tokenizer.json, or the folder holding it (the checkpoint
   * miles' `--hf-checkpoint` names); views show tokens' text with it (core/tokenizer/tokenText.ts).
   */
  tokenizer: string | null;
}

export interface GenericFieldMap {
  groupKey?: string;
  index?: string;
  status?: string;
  reward?: string;
  cause?: string;
  dataset?: string;
  prompt?: string;
  responseLength?: string;
}

export const DEFAULT_SETTINGS: RolloutLensSettings = {
  rewardKey: null,
  evalRewardKey: null,
  nSamplesPerPrompt: null,
  nSamplesPerEvalPrompt: null,
  dynamicFilter: 'none',
  framework: 'auto',
  evalConfig: null,
  infraCauses: [],
  policyCauses: [],
  fields: {},
  maxProblems: 1000,
  tokenizer: null,
};

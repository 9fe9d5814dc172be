// Format and kind of a file, decided from its first valid records (docs/semantics.md#formats). Each format is
// recognised by the keys only it writes; `settings.framework` narrows the candidates (slime: its own
// samples; miles' other formats stay readable, as slime's users run miles' tools too).
//
// Kind rules (what the analysis does with the file):
// - miles-sample / slime-sample: eval when the file name is `eval_<step>.jsonl` / `eval.jsonl`, or it sits in a
//   folder named `eval*`, or the record carries a dataset name (`dataset`, `metadata.dataset`,
//   `metadata.dataset_name`): train samples do not; else rollout.
// - miles-trajectory: `eval_<step>.jsonl` (miles `--dump-details` writes eval trajectories so)
//   or an `eval*` folder → eval; else rollout.
// - miles-eval-trials: eval (agent-server eval scripts). miles-metrics: metrics.
// - verl-rollout: rollout. verl-validation (has `reward` or `data_source`, or lives in a folder
//   named `val*`/`validation*`): eval.
// - generic: eval when the mapping names a dataset field and the record has a value there; else rollout.
import type { RolloutLensSettings } from '../vocabulary/settings';
import type { FileKind, FormatId } from '../vocabulary/types';
import { runFileStem } from '../vocabulary/logFiles';

import { Skipped } from '../reader/jsonRule';

import { parsePointer, resolvePath } from './pointer';

export interface Detection {
  format: FormatId;
  kind: FileKind;
}

type Obj = Record<string, unknown>;

function has(o: Obj, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

function isObject(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Skipped);
}

/** Last path segment and its parent folder, split on `/` and `\`. */
function pathParts(path: string): { base: string; dirs: string[] } {
  const parts = path.split(/[\\/]+/).filter((p) => p !== '');
  return { base: parts.at(-1) ?? '', dirs: parts.slice(0, -1) };
}

function evalByPath(path: string): boolean {
  const { base, dirs } = pathParts(path);
  const stem = runFileStem(base);
  return (stem !== null && /^eval(?:[_-][^/]*)?$/i.test(stem)) || dirs.some((d) => /^eval(?:[_-].*|s)?$/i.test(d));
}

function validationByPath(path: string): boolean {
  return pathParts(path).dirs.some((d) => /^val(?:idation)?(?:[_-].*)?$/i.test(d));
}

function recordsDataset(o: Obj): boolean {
  const meta = isObject(o.metadata) ? o.metadata : {};
  return typeof o.dataset === 'string' || typeof meta.dataset === 'string' || typeof meta.dataset_name === 'string';
}

function milesFormat(o: Obj, path: string, fw: RolloutLensSettings['framework']): Detection | null {
  if (has(o, 'instance_id') && (has(o, 'trial_idx') || has(o, 'status_code'))) return { format: 'miles-eval-trials', kind: 'eval' };
  if (isObject(o.metrics) && (has(o, 'step') || has(o, 'step_key') || has(o, 'ts'))) return { format: 'miles-metrics', kind: 'metrics' };
  if (has(o, 'sample_index') && has(o, 'group_index')) {
    return { format: 'miles-trajectory', kind: evalByPath(path) ? 'eval' : 'rollout' };
  }
  const sampleKeys = ['tokens', 'response', 'response_length', 'loss_mask', 'rollout_log_probs'];
  if (has(o, 'index') && (has(o, 'group_index') || has(o, 'prompt')) && sampleKeys.some((k) => has(o, k))) {
    return { format: sampleFramework(o, fw) === 'slime' ? 'slime-sample' : 'miles-sample', kind: evalByPath(path) || recordsDataset(o) ? 'eval' : 'rollout' };
  }
  return null;
}

/**
 * Fields only slime 624b824's `Sample` has (`Sample.to_dict()` writes every field), and fields only
 * miles 31f1ca9's has (docs/framework-files.md#slime). A `.pt` without `metadata` is slime's too
 * (scan/ptDumpScan.ts).
 */
const SLIME_ONLY_FIELDS = ['session_id', 'apply_chat_template_kwargs', 'rollout_top_p_token_offsets', 'multimodal_train_input_id', 'custom_rm_path'];
const MILES_ONLY_FIELDS = ['routing_key', 'adapter', 'reward_spec', 'opd_reverse_kl', 'rollout_indexer_topk'];

/** Whose `Sample.to_dict()` a sample record is: the setting when it names one, else the fields it has. */
function sampleFramework(o: Obj, fw: RolloutLensSettings['framework']): 'miles' | 'slime' {
  if (fw === 'miles' || fw === 'slime') return fw;
  return SLIME_ONLY_FIELDS.some((k) => has(o, k)) && !MILES_ONLY_FIELDS.some((k) => has(o, k)) ? 'slime' : 'miles';
}

function verlFormat(o: Obj, path: string): Detection | null {
  if (!has(o, 'input') || !has(o, 'output') || !(has(o, 'score') || has(o, 'gts') || has(o, 'reward'))) return null;
  if (has(o, 'reward') || has(o, 'data_source') || validationByPath(path)) return { format: 'verl-validation', kind: 'eval' };
  return { format: 'verl-rollout', kind: 'rollout' };
}

function genericFormat(o: Obj, settings: RolloutLensSettings): Detection | null {
  const { groupKey, dataset } = settings.fields;
  if (!groupKey) return null;
  let datasetValue: unknown;
  try {
    if (resolvePath(o, parsePointer(groupKey)) === undefined) return null;
    datasetValue = dataset ? resolvePath(o, parsePointer(dataset)) : undefined;
  } catch {
    return null;
  }
  return { format: 'generic', kind: typeof datasetValue === 'string' ? 'eval' : 'rollout' };
}

/** The format one record shows, or null when it matches none. */
export function detectRecord(value: unknown, path: string, settings: RolloutLensSettings): Detection | null {
  if (!isObject(value)) return null;
  const fw = settings.framework;
  const known = (fw !== 'verl' ? milesFormat(value, path, fw) : null) ?? (fw === 'auto' || fw === 'verl' ? verlFormat(value, path) : null);
  return known ?? genericFormat(value, settings);
}

/** How many valid records detection looks at before it settles on `unknown`. */
export const DETECTION_WINDOW = 20;

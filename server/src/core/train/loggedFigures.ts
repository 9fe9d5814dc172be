// What miles main (31f1ca9) logs from a step's training batch (docs/semantics.md#train-data-figures):
// `log_rollout_data` (backends/training_utils/log_utils.py) turns each rank's `rollout_data` into
// `(sum, count)` pairs, and `gather_log_data` reduces them over the data- and context-parallel
// ranks as Σsum / Σcount, named `rollout/<key>`. Per-token fields of the policy (log-probs,
// advantages, …) are summed as `get_sum_of_sample_mean` does (each sample's masked sum over its
// denominator); other lists of tensors as their mean; lists of numbers as their sum and length.

/** `rollout_data` keys `log_rollout_data` skips. */
export const UNLOGGED_KEYS: ReadonlySet<string> = new Set([
  'tokens',
  'multimodal_train_inputs',
  'loss_masks',
  'sample_indices',
  'rollout_ids',
  'rollout_mask_sums',
  'rollout_routed_experts',
  'rollout_indexer_topk',
  'max_seq_lens',
  'dynamic_global_batch_size',
  'witness_ids',
  'weight_versions',
  'metadata',
  'num_microbatches',
  'micro_batch_indices',
  'num_rollouts',
  'n_adapters',
  'adapter_slots',
  'step_slots',
  'step_adapter_names',
  'step_adapter_batch_sizes',
  'prompt_group_sizes',
]);

/** Lists of per-token tensors `log_rollout_data` reduces with `get_sum_of_sample_mean`. */
export const SAMPLE_MEAN_KEYS: ReadonlySet<string> = new Set([
  'log_probs',
  'ref_log_probs',
  'rollout_log_probs',
  'returns',
  'advantages',
  'values',
  'teacher_log_probs',
  'opd_reverse_kl',
  'entropy',
]);

/** The `(sum, count)` pairs of every rank, reduced as `reduce_gathered_log_dict` reduces them. */
export class RolloutFigures {
  private readonly pairs = new Map<string, { sum: number; count: number }>();

  /** One rank's pair for `key` (ranks in rank order, as gather_object lists them). */
  add(key: string, sum: number, count: number): void {
    const p = this.pairs.get(key);
    if (p === undefined) this.pairs.set(key, { sum, count });
    else {
      p.sum += sum;
      p.count += count;
    }
  }

  figures(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [key, p] of this.pairs) out[`rollout/${key}`] = p.count ? p.sum / p.count : 0;
    return out;
  }
}

/**
 * The two mismatch figures of miles' policy loss: each sample's masked sum of the per-token
 * figure over its denominator, summed over the step's samples (each context-parallel slice once)
 * and divided by the step's rollouts, as `aggregate_train_losses` divides by `num_rollouts`.
 */
export class TrainFigures {
  absDiff = 0;
  kl = 0;

  /** One sample's slice: its per-token sums (mask applied) over its denominator. */
  add(absDiffSum: number, klSum: number, denominator: number): void {
    const d = Math.max(denominator, 1);
    this.absDiff += absDiffSum / d;
    this.kl += klSum / d;
  }

  figures(rollouts: number): Record<string, number> {
    if (rollouts <= 0) return {};
    return { 'train/train_rollout_logprob_abs_diff': this.absDiff / rollouts, 'train/train_rollout_kl': this.kl / rollouts };
  }
}

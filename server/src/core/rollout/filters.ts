// The two filters miles runs on a finished group, re-run on the log (docs/semantics.md#aborted-group-filter, #zero-std-filter).
// slime runs only the second, with its own threshold: which filters run and the threshold are the
// framework's rules (core/vocabulary/frameworks.ts), passed in.
import { abortedReason, ZERO_STD_REASON_PREFIX } from '../vocabulary/causes';
import { pyRoundRepr } from '../vocabulary/python';
import type { SampleList } from '../store/sampleList';

export interface AbortedVerdict {
  /** The position of the first aborted member in group order: it names the cause. */
  namer: number;
  reason: string;
}

/**
 * docs/semantics.md#aborted-group-filter: a group with any aborted member is dropped; the FIRST aborted member in group order
 * names the cause (`members` must already be in group order). Null when nothing aborted.
 */
export function abortedFilter(members: SampleList): AbortedVerdict | null {
  for (let k = 0; k < members.length; k++) if (members.aborted(k)) return { namer: k, reason: abortedReason(members.cause(k)) };
  return null;
}

export type ZeroStdVerdict =
  | { kind: 'kept'; std: number }
  /** A member has no reward: miles' filter raises (see `zeroStdFilter`); `position`: the first such member. */
  | { kind: 'kept-null-reward'; position: number }
  | { kind: 'dropped'; std: number; reason: string };

/**
 * `check_reward_nonzero_std` (docs/semantics.md#zero-std-filter): keep iff the unbiased std of the rewards, in float64, is
 * > `threshold` (miles 1e-8, slime 1e-6: core/vocabulary/frameworks.ts). NaN std (one sample, a NaN reward, ±inf) fails the comparison, so the group is dropped,
 * as `torch.tensor(...).std() > 1e-8` is False for NaN. The reason is `zero_std_<repr(round(r, 1))>`
 * of the first member's reward, keeping its JSON int/float type.
 *
 * A null reward: miles main (31f1ca9) calls `torch.tensor(rewards, dtype=torch.float64)`, which
 * raises on None (`zeroStdFilterError`), so the rollout step crashes. The re-run keeps such a group
 * (docs/semantics.md#zero-std-filter: "a group holding a null reward is never zero-std") and the
 * caller reports the exception.
 */
export function zeroStdFilter(members: SampleList, threshold: number): ZeroStdVerdict {
  const rewards = new Float64Array(members.length);
  for (let k = 0; k < members.length; k++) {
    const r = members.reward(k);
    if (r === null) return { kind: 'kept-null-reward', position: k };
    rewards[k] = r;
  }
  const std = unbiasedStd(rewards);
  if (keepsStd(std, threshold)) return { kind: 'kept', std };
  const r = pyRoundRepr(rewards[0], members.rewardIsInt(0), 1);
  return { kind: 'dropped', std, reason: `${ZERO_STD_REASON_PREFIX}${r}` };
}

/**
 * What miles main (31f1ca9)'s `check_reward_nonzero_std` raises on a group holding a null reward:
 * `torch.tensor` refuses None; with `--reward-key`, `sample.reward[key]` on a reward of None raises
 * first (a reward object whose key holds null gets to `torch.tensor`). The engine keeps no trace
 * of which of the two a null came from, so with a reward key both are named.
 */
export function zeroStdFilterError(rewardKey: string | null): string {
  const tensor = 'TypeError: must be real number, not NoneType';
  if (rewardKey === null) return tensor;
  return `TypeError: 'NoneType' object is not subscriptable (a reward of null; ${tensor} for a reward object whose ${JSON.stringify(rewardKey)} is null)`;
}

/**
 * Unbiased (n−1) standard deviation in float64, value by value, as `torch.std` computes it by
 * default. Welford's update gives exactly 0 for equal values (a naive mean can leave 1e-17
 * residues) and propagates NaN for NaN or ±inf inputs, like torch. Fewer than two values: NaN.
 * `unbiasedStd` and the groups' quiet path (plainGroups.ts, no array a group) both run these steps,
 * so both reach the same float64.
 */
export class RunningStd {
  private count = 0;
  private mean = 0;
  private m2 = 0;

  reset(): void {
    this.count = 0;
    this.mean = 0;
    this.m2 = 0;
  }

  add(x: number): void {
    const delta = x - this.mean;
    this.count++;
    this.mean += delta / this.count;
    this.m2 += delta * (x - this.mean);
  }

  get std(): number {
    return this.count < 2 ? NaN : Math.sqrt(this.m2 / (this.count - 1));
  }
}

export function unbiasedStd(values: ArrayLike<number>): number {
  const s = new RunningStd();
  for (let i = 0; i < values.length; i++) s.add(values[i]);
  return s.std;
}

/** `check_reward_nonzero_std`'s verdict on a group's std: kept iff above the framework's threshold (NaN never is). */
export function keepsStd(std: number, threshold: number): boolean {
  return std > threshold;
}

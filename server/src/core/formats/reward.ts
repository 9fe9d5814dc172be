// The reward value of a record (docs/semantics.md#reward-value). A number is the reward; an object is indexed by the
// reward key (`rewardKey`; eval files use `evalRewardKey`, falling back to `rewardKey`); null is
// "no reward". The JSON literal decides int vs float (`zero_std_1` vs `zero_std_1.0`).
import { intLiteral } from '../reader/jsonRule';

import { isPlainObject } from './schemas';

export interface RewardValue {
  reward: number | null;
  rewardIsInt: boolean;
  /** Why an object reward gave no value (no key set, key missing, not a number); null when fine. */
  problem: string | null;
}

function keyList(o: Record<string, unknown>): string {
  const keys = Object.keys(o)
    .slice(0, 8)
    .map((k) => JSON.stringify(k));
  return keys.length ? keys.join(', ') : '(none)';
}

/** `holder[field]` is the raw reward (so int literals can be looked up on `holder`). */
export function resolveReward(holder: unknown, field: string, raw: unknown, key: string | null): RewardValue {
  if (typeof raw === 'number') return { reward: raw, rewardIsInt: intLiteral(holder, field) !== null, problem: null };
  if (!isPlainObject(raw)) return { reward: null, rewardIsInt: false, problem: null };
  if (key === null) {
    return {
      reward: null,
      rewardIsInt: false,
      problem: `the reward is an object of named rewards (${keyList(raw)}) and no reward key is set: set rewardKey / evalRewardKey (CLI: --reward-key, --eval-reward-key)`,
    };
  }
  if (!Object.prototype.hasOwnProperty.call(raw, key)) {
    return { reward: null, rewardIsInt: false, problem: `the reward object has no key ${JSON.stringify(key)} (keys: ${keyList(raw)})` };
  }
  const value = raw[key];
  if (typeof value === 'number') return { reward: value, rewardIsInt: intLiteral(raw, key) !== null, problem: null };
  if (value === null) return { reward: null, rewardIsInt: false, problem: null };
  return { reward: null, rewardIsInt: false, problem: `reward.${key} is not a number` };
}

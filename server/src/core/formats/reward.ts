// The reward value of a record (docs/semantics.md#reward-value). A number is the reward; an object is indexed by the
// reward key (`rewardKey`; eval files use `evalRewardKey`, falling back to `rewardKey`); null is
// "no reward". The JSON literal decides int vs float (`zero_std_1` vs `zero_std_1.0`). A boolean
// (miles' `rm_type dapo` returns `acc` as a Python bool) is Python's int 1 or 0: `sum`, `== 1` and
// `round` treat `True` as the int 1.
import { intLiteral, Skipped } from '../reader/jsonRule';
import type { KeyedReward } from '../vocabulary/types';

import { isPlainObject } from './members/checks';

export interface RewardValue {
  reward: number | null;
  rewardIsInt: boolean;
  /** A Python bool (`reward` 1 or 0): quoted as Python prints it, `True` / `False`. */
  rewardIsBool?: true;
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
  if (typeof raw === 'boolean') return boolReward(raw);
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
  if (typeof value === 'boolean') return boolReward(value);
  if (value === null) return { reward: null, rewardIsInt: false, problem: null };
  return { reward: null, rewardIsInt: false, problem: `reward.${key} is not a number or a boolean` };
}

/** Python's `bool` is a subclass of `int`: `True` is the int 1 to `sum`, `==` and `round`. */
function boolReward(value: boolean): RewardValue {
  return { reward: value ? 1 : 0, rewardIsInt: true, rewardIsBool: true, problem: null };
}

/**
 * `Sample.get_reward_value(args)` of an object reward `raw` under `key` (`--reward-key`; null: the
 * object itself), as Python compares and rounds it (docs/semantics.md#miles-sample-metrics).
 */
export function keyedReward(raw: Record<string, unknown>, key: string | null): KeyedReward {
  if (key === null) return { reward: null, rewardIsInt: false, pyType: 'dict', text: equalityText(raw) };
  const value = Object.prototype.hasOwnProperty.call(raw, key) ? raw[key] : null;
  if (typeof value === 'number') return { reward: value, rewardIsInt: intLiteral(raw, key) !== null, pyType: null, text: null };
  if (typeof value === 'boolean') return { reward: value ? 1 : 0, rewardIsInt: true, pyType: null, text: null };
  if (value === null || value === undefined) return { reward: null, rewardIsInt: false, pyType: null, text: null };
  const pyType = typeof value === 'string' || (value instanceof Skipped && value.kind === 'string') ? 'str' : Array.isArray(value) ? 'list' : 'dict';
  return { reward: null, rewardIsInt: false, pyType, text: equalityText(value) };
}

/**
 * A text equal for two values exactly when Python's `==` holds them equal: numbers by value (`1`,
 * `1.0` and `True` alike, `-0.0 == 0`), dicts by their keys whatever the order, lists item by item.
 * Null for a value that equals no other sample's: it holds a NaN (no two NaN floats of different
 * samples are equal), a long string skipped without its hash, or something JSON does not have.
 */
function equalityText(v: unknown): string | null {
  if (typeof v === 'number') return Number.isNaN(v) ? null : `n${v === 0 ? 0 : v}`;
  if (typeof v === 'boolean') return v ? 'n1' : 'n0';
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Skipped) return v.hash !== null ? `${v.kind}#${v.hash}` : null;
  if (Array.isArray(v)) return joinedTexts('[', v.map(equalityText), ']');
  if (isPlainObject(v)) {
    const keys = Object.keys(v).sort();
    return joinedTexts(
      '{',
      keys.map((k) => prefixed(`${JSON.stringify(k)}:`, equalityText(v[k]))),
      '}',
    );
  }
  return null;
}

function prefixed(prefix: string, text: string | null): string | null {
  return text === null ? null : prefix + text;
}

/** The texts of a list's or dict's items joined, or null when one of them equals nothing. */
function joinedTexts(open: string, parts: (string | null)[], close: string): string | null {
  return parts.includes(null) ? null : `${open}${parts.join(',')}${close}`;
}

// Finding messages of the rollout analysis. Each starts with what happened (the part before ` — `,
// e.g. `group dropped: <reason>`), then says why it matters and what to do. Text from the log
// (causes, group keys) is inserted as data; escaping is the job of whoever renders it (hover,
// terminal).
import { classifyCause, dropMetricName, type CauseSettings } from '../vocabulary/causes';
import { pyFloatRepr, pyIntRepr } from '../vocabulary/python';
import type { SampleList } from '../store/sampleList';
import type { SampleRecord } from '../vocabulary/types';

/** A reward as Python prints it (`repr`, as a list shows it): `1` for an int, `1.0` for a float, `True` for a bool, `None` for null. */
export function rewardRepr(s: Pick<SampleRecord, 'reward' | 'rewardIsInt' | 'rewardIsBool'>): string {
  if (s.reward === null) return 'None';
  if (s.rewardIsBool === true) return s.reward !== 0 ? 'True' : 'False';
  if (s.rewardIsInt && Number.isSafeInteger(s.reward)) return pyIntRepr(s.reward);
  return pyFloatRepr(s.reward);
}

/** `namer`: the position in `members` of the first aborted member. */
export function groupDroppedMessage(reason: string, key: string, members: SampleList, namer: number, settings: CauseSettings): string {
  const namerCause = members.cause(namer);
  let aborted = 0;
  const others: string[] = [];
  for (let k = 0; k < members.length; k++) {
    if (!members.aborted(k)) continue;
    aborted++;
    const cause = members.cause(k);
    if (cause !== namerCause) others.push(`${cause ?? 'no exit_status'} (line ${members.line(k)})`);
  }
  const parts = [
    // The older chart names are in the report table and the hover (causes.formerNames), not here.
    `${aborted} of ${members.length} samples of group ${key} aborted, so the whole group is` +
      ` discarded before any dynamic filter; counted in ${dropMetricName(reason)}.`,
    causeAdvice(namerCause, settings),
  ];
  if (others.length > 0) {
    const list = others.join(', ');
    parts.push(`The first aborted sample in group order names the cause; other aborted samples record: ${list}.`);
  }
  return `group dropped: ${reason} — ${parts.join(' ')}`;
}

function causeAdvice(cause: string | null, settings: CauseSettings): string {
  if (cause === null || cause === '') {
    return 'The first aborted sample records no metadata.exit_status, so the cause is unknown.';
  }
  switch (classifyCause(cause, settings)) {
    case 'infrastructure':
      return `${cause} is an infrastructure failure: discarding it is right; if it recurs, fix the service, not the policy.`;
    case 'policy':
      return `${cause} is a failure the policy can cause: it should be kept and scored 0, not aborted (see policy-failure-discarded).`;
    case 'scored':
      return `${cause} marks a normal finish: an abort with it is unexpected; check the agent's status handling.`;
    default:
      return `${cause} is in neither cause list; add it to the setting infraCauses or policyCauses so its handling is checked.`;
  }
}

export function zeroStdMessage(reason: string, key: string, members: SampleList, std: number, threshold: number): string {
  const first = Array.from({ length: Math.min(8, members.length) }, (_, k) =>
    rewardRepr({ reward: members.reward(k), rewardIsInt: members.rewardIsInt(k), rewardIsBool: members.rewardIsBool(k) || undefined }),
  );
  const shown = first.join(', ') + (members.length > 8 ? ', …' : '');
  let why: string;
  if (members.length === 1) {
    why = `group ${key} has a single sample: its unbiased std is NaN (n−1 = 0), which is not > ${threshold}`;
  } else if (Number.isNaN(std)) {
    why = `the std of group ${key}'s rewards [${shown}] is NaN (a NaN or infinite reward), which is not > ${threshold}`;
  } else {
    why = `group ${key}'s ${members.length} rewards [${shown}] have unbiased std ${pyFloatRepr(std)} ≤ ${threshold}`;
  }
  return (
    `group dropped: ${reason} — ${why}, so check_reward_nonzero_std drops it: every GRPO advantage would be 0 and` +
    ` the group would teach nothing. Counted in ${dropMetricName(reason)}. Many such drops mean prompts are` +
    ' too easy or too hard for the policy (or the reward function is constant).'
  );
}

export function abortCauseUnknownMessage(s: SampleRecord, namer: SampleRecord | null, trajectory: boolean): string {
  const counted =
    namer === null
      ? 'this sample has no group key, so no group can be credited with it.'
      : namer === s
        ? `its group ${s.groupKey} counts as group_has_aborted_unknown.`
        : `its group ${s.groupKey} counts under the first aborted sample (line ${namer.line}), but this abort's own cause is lost.`;
  const where = trajectory ? ' Trajectory dumps carry no metadata: the Sample itself may have held a cause.' : '';
  return (
    `aborted sample records no exit_status — ${counted}${where} Record why it aborted: when the agent aborts for an` +
    ' infrastructure failure, set metadata.exit_status to its cause (e.g. ServerUnreachable, SandboxUnavailable),' +
    ' so the drop metric and this check can tell infrastructure from policy failures.'
  );
}

export function infraScoredMessage(s: SampleRecord, groupDropReason: string | null): string {
  const fate =
    groupDropReason === null
      ? 'its group was kept, so the policy was trained as if it had failed'
      : `its group happened to be dropped (${groupDropReason}), but the same handling trains other such failures as policy failures`;
  return (
    `infrastructure failure ${s.cause} was kept and scored (status ${s.status ?? 'unknown'}, reward ${rewardRepr(s)}) — ` +
    `${fate}. ${s.cause} is not caused by the policy: the agent should abort the sample` +
    ` (status aborted, metadata.exit_status = ${s.cause}) so the whole group is discarded.`
  );
}

export function policyDiscardedMessage(s: SampleRecord): string {
  return (
    `policy failure ${s.cause} was aborted — the policy can cause ${s.cause}, so aborting hides this failure from` +
    ' training and its whole group is discarded; the policy is never taught to avoid it. Keep the sample and score' +
    ` it 0 (or add ${s.cause} to the setting infraCauses if your stack causes it, not the policy).`
  );
}

export function incompleteGroupMessage(key: string, size: number, n: number, framework: 'miles' | 'slime' = 'miles'): string {
  if (framework === 'slime') return slimeIncompleteMessage(key, `${size} samples`, n);
  return (
    `group ${key} has ${size} samples, expected n_samples_per_prompt = ${n} — miles main (31f1ca9)'s sync rollout asserts that every` +
    ` group holds n samples, and GRPO's baseline for this prompt is taken over ${size}. Samples were lost or` +
    ' duplicated while writing, or the setting nSamplesPerPrompt does not match the run.'
  );
}

/** A group of compact rollouts (siblings share rollout_id) whose number of rollouts is not n. */
export function incompleteRolloutsMessage(key: string, rollouts: number, samples: number, n: number, framework: 'miles' | 'slime' = 'miles'): string {
  if (framework === 'slime') return slimeIncompleteMessage(key, `${rollouts} rollouts (${samples} samples; siblings share rollout_id)`, n);
  return (
    `group ${key} has ${rollouts} rollouts (${samples} samples; siblings share rollout_id), expected n_samples_per_prompt = ${n}` +
    ` — miles main (31f1ca9)'s sync rollout asserts that every group holds n rollouts, and GRPO's baseline for this prompt is taken over` +
    ` its ${rollouts} rollouts, one reward each (_normalize_rewards_by_rollout). Rollouts were lost or duplicated while` +
    ' writing, or the setting nSamplesPerPrompt does not match the run.'
  );
}

/**
 * slime 624b824's `generate_rollout_async` asserts `len(group) == args.n_samples_per_prompt` (no
 * message) over a group's entries, a fanned-out rollout's samples being one list entry.
 */
function slimeIncompleteMessage(key: string, holds: string, n: number): string {
  return (
    `group ${key} has ${holds}, expected n_samples_per_prompt = ${n} — slime 624b824's generate_rollout_async asserts that every` +
    ' group holds n rollouts (AssertionError), so its step would not have run. Samples were lost or duplicated while writing,' +
    ' or the setting nSamplesPerPrompt does not match the run.'
  );
}

export function mixedPromptsMessage(key: string, distinct: number): string {
  return (
    `misgrouped: group ${key} holds ${distinct} different prompts — samples sharing a group key must answer one` +
    ' prompt; GRPO compares rewards within a group, so its advantages are meaningless. Check how group_index is assigned.'
  );
}

export function spreadPromptMessage(keys: readonly string[]): string {
  const shown = keys.slice(0, 8).join(', ') + (keys.length > 8 ? ', …' : '');
  return (
    `misgrouped: one prompt is spread over ${keys.length} groups (${shown}) — each group gets its own baseline from` +
    ' part of the samples. Check how group_index is assigned (or whether the dataset repeats this prompt).'
  );
}

/** filter-crash: a group holding a null reward reaches `check_reward_nonzero_std`. */
export function filterCrashMessage(key: string, size: number, line: number, error: string, versionOwner: string): string {
  return (
    `group ${key} (${size} sample${size === 1 ? '' : 's'}) reaches check_reward_nonzero_std with a null reward (line ${line}), ` +
    `on which ${versionOwner} filter raises ${error}, so the rollout step crashes; the tool keeps the group (a group holding a null reward is never zero-std)`
  );
}

/**
 * filter-crash (slime 624b824): in a step whose rollouts fan out, each group reaches
 * `check_reward_nonzero_std` as a list of rollouts, each the list of its samples; the filter reads
 * `get_reward_value` of each. `wideLine`: the first sample of the group's first fanned-out rollout.
 */
export function slimeListsCrashMessage(key: string, rollouts: number, size: number, wideLine: number | null, versionOwner: string): string {
  const which =
    wideLine !== null
      ? `its rollout at line ${wideLine} fans out into several samples sharing rollout_id`
      : 'rollouts of this step fan out into several samples sharing rollout_id';
  return (
    `group ${key} (${rollouts} rollout${rollouts === 1 ? '' : 's'}, ${size} sample${size === 1 ? '' : 's'}) reaches check_reward_nonzero_std as a list of rollouts, each the list of its samples (${which}, ` +
    `and ${versionOwner} RolloutManager flattens a step only when every rollout is such a list), ` +
    `on which the filter raises AttributeError: 'list' object has no attribute 'get_reward_value', so the rollout step crashes; ` +
    'the tool keeps the group. Run compact / sub-agent rollouts without the dynamic filter, or with a filter that reads each list.'
  );
}

/**
 * train-data-crash: what miles' `convert_samples_to_train_data` raises on a step's kept samples
 * (rollout/rewardNormalization.ts), after the step was dumped and its metrics logged.
 */
export function trainDataCrashMessage(error: string, versionOwner: string): string {
  const why = error.startsWith('ValueError')
    ? 'the samples of one rollout (sharing rollout_id, else index) carry different rewards: a reward function scored the' +
      " siblings of a compact rollout one by one; give every sibling the rollout's one reward"
    : 'a kept sample has no reward (None), and torch.tensor refuses it; score every sample, or drop its group' +
      ' (the dynamic filter check_reward_nonzero_std raises on it first)';
  return (
    `${versionOwner} convert_samples_to_train_data raises ${error} in _normalize_rewards_by_rollout, after this step was` +
    ` dumped and its metrics logged, so the step never trains — ${why}. The normalisation runs with` +
    ` --advantage-estimator grpo (the default), gspo or reinforce_plus_plus_baseline unless --disable-rewards-normalization,` +
    ` --custom-reward-post-process-path or --custom-convert-samples-to-train-data-path is given.`
  );
}

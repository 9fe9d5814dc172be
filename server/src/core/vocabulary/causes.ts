// Failure causes (docs/semantics.md#failure-causes): who caused a failure decides whether training must discard it
// (infrastructure) or keep it as a scored policy failure. Also the metric names a drop reason is
// counted under, today and on older charts, so the report, hovers and tree views name them alike.

/** Who caused a failure, as far as the allow-lists tell. */
export type CauseClass = 'infrastructure' | 'policy' | 'scored' | 'unclassified';

/** Settings that extend the allow-lists (a subset of `RolloutLensSettings`). */
export interface CauseSettings {
  infraCauses: readonly string[];
  policyCauses: readonly string[];
}

/** Infrastructure causes (docs/semantics.md#failure-causes): the policy cannot cause them, so the group must be discarded. */
const DEFAULT_INFRA_CAUSES: readonly string[] = [
  'SandboxUnavailable', // failed before the agent started
  'AgentSetupFailed', // failed before the agent started
  'ServerUnreachable', // in-process agent lost the model service; the exceptions behind it:
  'APIConnectionError', // litellm
  'ServiceUnavailableError', // litellm
  'TransportError', // httpx (and its subclasses' common base)
  'NoModelCalls', // miles' own session-path aborts
  'CollectFailed',
  'AllTruncated',
  'NonCanonicalVerifier',
];

/** Causes the policy can bring about (docs/semantics.md#failure-causes): keep the sample, scored 0. */
const DEFAULT_POLICY_CAUSES: readonly string[] = [
  'TimeLimitExceeded',
  'SequenceLengthLimitExceeded',
  'VerifierError', // a verifier crash can follow from what the policy wrote
  'AgentError',
];

/** A sample that finished and was scored normally. */
const SCORED_CAUSES: readonly string[] = ['Submitted'];

/**
 * Families of policy causes the table names without fixing one spelling: timeouts, turn limits,
 * and installed agents' `Api*` errors (found by regex over output the policy writes). Checked
 * only after the exact lists, so a user's `infraCauses` entry always wins over a pattern.
 * The patterns are anchored or literal (no nested quantifiers): safe on hostile text.
 */
const POLICY_PATTERNS: readonly RegExp[] = [
  /time(?:d)?[\s_-]?out/i, // Timeout, TimeoutError, AgentTimeoutError, timed_out
  /time[\s_-]?limit/i, // TimeLimitExceeded, time_limit
  /turn[\s_-]?limit|max[\s_-]?turns/i, // TurnLimitExceeded, MaxTurnsExceeded, max_turns
  /^Api[A-Z]\w*$/, // ApiError, ApiRateLimitError, ... of installed agents
];

/**
 * Classifies a cause. Precedence, first match wins: the user's `infraCauses`, the user's
 * `policyCauses` (users know their stack better than the defaults), then the built-in lists
 * (docs/semantics.md#failure-causes), then the policy patterns. A cause in neither list is
 * `unclassified`: no finding is raised on it.
 */
export function classifyCause(cause: string | null, settings: CauseSettings): CauseClass {
  if (cause === null || cause === '') return 'unclassified';
  const exact = classifyName(cause, settings);
  if (exact !== 'unclassified') return exact;
  // An exception recorded with its module (`httpx.TransportError`) is judged by its class name.
  const dot = cause.lastIndexOf('.');
  return dot > 0 && dot < cause.length - 1 ? classifyName(cause.slice(dot + 1), settings) : 'unclassified';
}

function classifyName(cause: string, settings: CauseSettings): CauseClass {
  if (settings.infraCauses.includes(cause)) return 'infrastructure';
  if (settings.policyCauses.includes(cause)) return 'policy';
  if (DEFAULT_INFRA_CAUSES.includes(cause)) return 'infrastructure';
  if (SCORED_CAUSES.includes(cause)) return 'scored';
  if (DEFAULT_POLICY_CAUSES.includes(cause)) return 'policy';
  if (POLICY_PATTERNS.some((re) => re.test(cause))) return 'policy';
  return 'unclassified';
}

// ---- metric names ----

export const DROP_METRIC_PREFIX = 'rollout/dynamic_filter/drop_';
export const ABORTED_REASON_PREFIX = 'group_has_aborted_';
export const ZERO_STD_REASON_PREFIX = 'zero_std_';

/** Chart names an aborted-group drop had before per-cause reasons (docs/semantics.md#aborted-group-filter). */
export const FORMERLY_ABORTED = {
  sync: 'rollout/dynamic_filter/drop_group_has_aborted',
  fullyAsync: 'rollout/fully_async/aborted_groups_filtered',
} as const;

/** Reason of a group dropped by the aborted-group filter; `unknown` when no cause is recorded. */
export function abortedReason(cause: string | null): string {
  return `${ABORTED_REASON_PREFIX}${cause === null || cause === '' ? 'unknown' : cause}`;
}

/** `rollout/dynamic_filter/drop_<reason>`: the metric miles counts a dropped group in. */
export function dropMetricName(reason: string): string {
  return `${DROP_METRIC_PREFIX}${reason}`;
}

export function isAbortedReason(reason: string): boolean {
  return reason.startsWith(ABORTED_REASON_PREFIX);
}

/** One older chart name and the rollout mode that logged it. */
export interface FormerName {
  name: string;
  mode: 'sync' | 'fully async';
}

/**
 * How older charts counted a drop of this reason: every aborted-group drop went into one sync
 * counter and one fully-async counter, whatever its cause. Other reasons kept their names: [].
 */
export function formerNames(reason: string): FormerName[] {
  if (!isAbortedReason(reason)) return [];
  return [
    { name: FORMERLY_ABORTED.sync, mode: 'sync' },
    { name: FORMERLY_ABORTED.fullyAsync, mode: 'fully async' },
  ];
}

/** The older chart names only (for `CauseBucket.formerly`). */
export function formerlyMetricNames(reason: string): string[] {
  return formerNames(reason).map((f) => f.name);
}

// Rollout (training) analysis (docs/semantics.md#aborted-group-filter): re-runs miles' aborted-group filter and the optional
// dynamic filter `check_reward_nonzero_std` on one file's samples, recomputes the drop metrics
// `rollout/dynamic_filter/drop_<reason>`, and judges every failure cause (docs/semantics.md#failure-causes) and group (#group-shape).
import type { RolloutLensSettings } from '../vocabulary/settings';
import { dropMetricName } from '../vocabulary/causes';
import { severityOf, type FindingCode } from '../vocabulary/catalog';
import type { FormatId, Finding, GroupCounts, GroupOutcome, GroupVerdicts, SampleRecord } from '../vocabulary/types';
import { rowList, type SampleList } from '../store/sampleList';
import { abortedFilter, zeroStdFilter, zeroStdFilterError } from './filters';
import type { SampleGroup } from './groups';
import {
  abortCauseUnknownMessage,
  filterCrashMessage,
  slimeListsCrashMessage,
  groupDroppedMessage,
  infraScoredMessage,
  policyDiscardedMessage,
  trainDataCrashMessage,
  zeroStdMessage,
} from './messages';
import { incompleteGroups, mixedPrompts } from './shape';
import { SampleStore } from '../store/sampleStore';
import { SampleColumns } from '../store/sampleColumns';
import { isSampleDump, sampleRulesOf, type SampleFrameworkRules } from '../vocabulary/frameworks';
import { crashMessage, milesSampleMetrics, repetitionCrashMessage } from '../eval/milesMetrics';
import { milesPassrate, passrateGroupSize } from '../eval/passrate';
import { FirstFindings, firstOfEachSeverity } from './firstFindings';
import { eachGroup } from './groupRows';
import { PromptSpread } from './promptSpread';
import { PlainGroups } from './plainGroups';
import { compactRolloutsMessage, compactSummary, rolloutCount, rolloutIdsNameRollouts, rolloutsOf } from './compactRollouts';
import { CauseClasses } from './causeClass';
import { MAX_RELATED_LINES, relatedMembers } from './related';
import { rewardNormalizationCrash } from './rewardNormalization';
import { slimeCompactMessage, slimeNormalization } from './slimeNormalization';

export interface RolloutResult {
  /** One outcome per group, in file order (first-written member). */
  groups: GroupOutcome[];
  counts: GroupCounts;
  /** Drop metric → groups dropped for that reason; only reasons that occurred, first-seen order. */
  metrics: Record<string, number>;
  /** miles-sample files: the per-sample metrics miles logs under `rollout/…` (docs/semantics.md#miles-sample-metrics). */
  sampleMetrics: Record<string, number>;
  findings: Finding[];
  /** Findings left out by `findingLimit` (the report shows them as a count). */
  leftOut: number;
  /** With `keepGroups: 'verdicts'`: each group's verdict by the store's group id (`groups` is empty). */
  verdicts?: GroupVerdicts;
}

/**
 * `samples`: a file's store (the engine's), or records in file order (tests). Groups are built one
 * at a time from the store's group ids, and the checks read a group's rows by position
 * (core/store/sampleList.ts): no record is made but those a finding names. `keepGroups: false`
 * leaves `groups` empty (the CLI's report needs only the counts); `'verdicts'` keeps each group's
 * verdict in a typed array by group id instead (the editor's run views over large folders).
 */
export function analyzeRollout(
  file: string,
  format: FormatId,
  samples: readonly SampleRecord[] | SampleColumns,
  settings: RolloutLensSettings,
  keepGroups: boolean | 'verdicts' = true,
  /**
   * Keep at most this many findings of each severity, the first by line (ties: the order they were
   * found), and count the rest in `leftOut`: the report keeps only `maxProblems` per file anyway, the
   * most severe (core/findingCap.ts), so a file of a million samples need not hold a message for
   * each of its dropped groups.
   */
  findingLimit = Infinity,
): RolloutResult {
  // verl has no aborted-group filter: it masks empty responses (response_length == 0) out of the
  // loss and its means instead of dropping the group, and `check_reward_nonzero_std` is miles'
  // filter (verl's DAPO group filter logs under other names). So a verl file gets groups and the
  // shape checks, but no `group_has_aborted_*` / `zero_std_*` drops.
  const filtersRun = format !== 'verl-rollout' && format !== 'verl-validation';
  // Which filters run, their threshold and the metric names are the framework's (slime: no
  // aborted-group filter, threshold 1e-6).
  const rules = sampleRulesOf(format);
  const causeClasses = new CauseClasses(settings);
  const store = samples instanceof SampleColumns ? samples : SampleStore.of(samples);
  // Findings in the order the checks ran over all groups (cause checks, then group sizes, then
  // prompts), so the stable sort by line below orders findings on one line as it always has.
  // Merged in this order at the end; each refuses what the others put past the limit.
  const lists = FirstFindings.merged(findingLimit, 4);
  const [main, sizes, mixed, spread] = lists;
  const outcomes: GroupOutcome[] = [];
  const metrics: Record<string, number> = {};
  let total = 0;
  let dropped = 0;
  const reasonOf = keepGroups === 'verdicts' ? new Int32Array(store.groupKeys.size) : null;
  const reasonIds = new Map<string, number>();

  const into =
    (list: FirstFindings): Report =>
    (code, at, message, related) => {
      if (!list.wants(at.line, code)) return;
      list.push({
        code,
        severity: severityOf(code),
        file,
        line: at.line,
        message: message(),
        group: at.groupKey,
        dataset: at.dataset,
        fix: null,
        ...(related.length > 0 ? { related: related.slice(0, MAX_RELATED_LINES).map((s) => ({ file, line: s.line })) } : {}),
      });
    };
  const finding = into(main);
  const prompts = new PromptSpread(store);

  // Samples without a group key belong to no group (see groupSamples); only their causes are checked.
  const plain = new PlainGroups(store, settings, filtersRun, format);
  // Groups are counted by rollout, not by sample, where rollout_ids name rollouts: miles main
  // (31f1ca9) and slime 624b824 both assert `len(group) == n_samples_per_prompt` over a group's
  // entries, one a rollout (a Sample, or a fanned-out rollout's list of samples). Such groups go
  // through the checks. `compact`: miles' per-rollout reading on top (the compact-rollouts finding).
  const byRollout = filtersRun && isSampleDump(format) && rolloutIdsNameRollouts(store);
  const compact = byRollout && rules.compactRollouts;
  // slime 624b824 flattens a step's groups only when every entry has one shape (itertools.chain while
  // the first entry is a list): where one rollout fans out into a list, every entry of the step is a
  // list, so its dynamic filter raises on every group (rollout/messages.ts slimeListsCrashMessage).
  const slimeLists =
    byRollout &&
    rules.framework === 'slime' &&
    settings.dynamicFilter === 'check_reward_nonzero_std' &&
    compactSummary(store, settings.nSamplesPerPrompt) !== null;
  // miles converts the kept groups to training data after dumping and logging them (rewardNormalization.ts).
  const droppedGroups = filtersRun && rules.framework === 'miles' && isSampleDump(format) ? new Uint8Array(store.groupKeys.size) : null;
  let filterRaised = false;
  const ungrouped = eachGroup(
    store,
    (gid, rows, from, to) => {
      if (!byRollout && plain.quietKeep(rows, from, to, main, mixed)) {
        total++;
        if (keepGroups === true)
          outcomes.push({ key: store.groupKeys.value(gid) as string, lines: linesOf(store, rows, from, to), kept: true, reason: null, metric: null });
        prompts.addRows(rows, from, to);
        return true;
      }
      const reason = filtersRun && !byRollout ? plain.quietAbort(rows, from, to, main, sizes, mixed) : null;
      if (reason === null) return false;
      total++;
      dropped++;
      const metric = dropMetricName(reason);
      if (keepGroups === true) outcomes.push({ key: store.groupKeys.value(gid) as string, lines: linesOf(store, rows, from, to), kept: false, reason, metric });
      else if (reasonOf !== null) {
        let id = reasonIds.get(reason);
        if (id === undefined) reasonIds.set(reason, (id = reasonIds.size + 1));
        reasonOf[gid] = id;
      }
      metrics[metric] = (metrics[metric] ?? 0) + 1;
      if (droppedGroups !== null) droppedGroups[gid] = 1;
      prompts.addRows(rows, from, to);
      return true;
    },
    (g, rows) => {
      const { reason, namer, raised } = filtersRun ? filterGroup(g, settings, rules, slimeLists, finding) : KEPT;
      total++;
      if (raised === true) filterRaised = true;
      if (reason !== null) {
        dropped++;
        if (droppedGroups !== null) droppedGroups[store.groupId(rows[0])] = 1;
        const metric = dropMetricName(reason);
        metrics[metric] = (metrics[metric] ?? 0) + 1;
      }
      if (keepGroups === true)
        outcomes.push({
          key: g.key,
          lines: linesOf(store, rows, 0, rows.length),
          kept: reason === null,
          reason,
          metric: reason === null ? null : dropMetricName(reason),
        });
      else if (reasonOf !== null && reason !== null) {
        let id = reasonIds.get(reason);
        if (id === undefined) reasonIds.set(reason, (id = reasonIds.size + 1));
        reasonOf[store.groupId(rows[0])] = id;
      }
      for (let k = 0; k < g.members.length; k++) checkCause(g.members, k, format, causeClasses, filtersRun && rules.abortedGroupFilter, namer, reason, finding);
      for (const p of incompleteGroups([g], settings.nSamplesPerPrompt, byRollout, rules.framework)) into(sizes)(p.code, p.at, () => p.message, p.related);
      const odd = mixedPrompts(g);
      if (odd !== null) into(mixed)(odd.code, odd.at, () => odd.message, odd.related);
      prompts.addRows(rows);
    },
  );
  const loose = rowList(store, ungrouped);
  for (let k = 0; k < loose.length; k++) checkCause(loose, k, format, causeClasses, filtersRun && rules.abortedGroupFilter, NO_NAMER, null, finding);
  // Asked prompt by prompt as the list fills, so one past its cutoff is only counted, never built.
  for (const p of prompts.problems((line) => spread.wants(line, 'misgrouped'))) into(spread)(p.code, p.at, () => p.message, p.related);

  const sampleMetrics: Record<string, number> = {};
  if (isSampleDump(format)) {
    // Read from the store's columns: no record is built but those of a crash group.
    const perSample = milesSampleMetrics(store, rules);
    for (const [k, v] of Object.entries(perSample.metrics)) sampleMetrics[`rollout/${k}`] = v;
    // `--log-passrate`: logged only then, recomputed always (a run that did not log it has nothing to compare).
    // One walk over the columns serves both the group size and the figures.
    const tally = rules.rolloutPassrateFromSamples ? store.groupTally() : undefined;
    if (tally !== undefined) {
      const passrate = milesPassrate(store, passrateGroupSize(store, settings.nSamplesPerPrompt, tally), tally);
      for (const [k, v] of Object.entries(passrate.values)) sampleMetrics[`passrate/${k}`] = v;
    }
    const fanned = compact ? compactSummary(store, settings.nSamplesPerPrompt) : null;
    // slime: its filter raised on a fanned-out step (slimeLists) or the step trains on every sample.
    const slimeFanned = byRollout && rules.framework === 'slime' && !slimeLists ? compactSummary(store, settings.nSamplesPerPrompt) : null;
    if (slimeFanned !== null)
      finding(
        'compact-rollouts',
        store.at(slimeFanned.first),
        () => slimeCompactMessage(slimeFanned, slimeNormalization(store, slimeFanned), rules.version),
        slimeFanned.siblings.slice(0, MAX_RELATED_LINES).map((row) => store.at(row)),
      );
    if (fanned !== null) {
      const logged = tally !== undefined ? milesPassrate(store, fanned.n, tally).values : {};
      finding(
        'compact-rollouts',
        store.at(fanned.first),
        () => compactRolloutsMessage(fanned, logged, rules.versionOwner, rules.version),
        fanned.siblings.slice(0, MAX_RELATED_LINES).map((row) => store.at(row)),
      );
    }
    // miles: a group with an aborted member is gone before miles logs (check_no_aborted); one whose
    // rewards are all null without an abort reaches the zero-std count and its round(None). slime
    // has no such filter: every all-null group reaches it.
    const crash = rules.abortedGroupFilter ? perSample.crashGroups.filter((g) => !g.aborted) : perSample.crashGroups;
    if (crash.length > 0)
      finding(
        'metrics-crash',
        store.at(crash[0].row),
        () => crashMessage('rollout/zero_std/…', crash, rules),
        // Only the records the finding lists (it lists MAX_RELATED_LINES at most).
        crash.slice(1, 1 + MAX_RELATED_LINES).map((g) => store.at(g.row)),
      );
    const rep = perSample.repetitionCrash;
    if (rep !== null) finding('metrics-crash', rep.first, () => repetitionCrashMessage('rollout/repetition_frac', rep, rules), []);
    // A filter or the logging that raised stopped the step before the conversion, which sees the
    // kept groups (an aborted sample never: check_no_aborted drops its group).
    const converted = (row: number) => !store.abortedAt(row) && (store.groupId(row) < 0 || droppedGroups?.[store.groupId(row)] !== 1);
    const normalization =
      droppedGroups !== null && !filterRaised && crash.length === 0 && rep === null
        ? rewardNormalizationCrash(store, (row) => !converted(row), rolloutIdsNameRollouts(store))
        : null;
    if (normalization !== null)
      finding(
        'train-data-crash',
        store.at(normalization.row),
        () => trainDataCrashMessage(normalization.error, rules.versionOwner),
        normalization.related.slice(0, MAX_RELATED_LINES).map((row) => store.at(row)),
      );
  }

  // Stable: on one line, the group's finding comes before the sample's own cause findings. Each
  // list holds the first `findingLimit` of each severity of its own; merged, the first of them all
  // (the engine's cap, core/findingCap.ts, chooses among these).
  const all = lists.flatMap((l) => l.list()).sort((a, b) => a.line - b.line);
  const findings = firstOfEachSeverity(all, findingLimit);
  const leftOut = lists.reduce((n, l) => n + l.leftOut, 0) + (all.length - findings.length);
  const result: RolloutResult = { groups: outcomes, counts: { total, kept: total - dropped, dropped }, metrics, sampleMetrics, findings, leftOut };
  if (reasonOf !== null) result.verdicts = { reasonOf, reasons: [...reasonIds.keys()] };
  return result;
}

/** `message` is built only for a finding that can still be among the first `findingLimit`. */
type Report = (code: FindingCode, at: SampleRecord, message: () => string, related: readonly SampleRecord[]) => void;

/** The member that names an aborted group's cause: its position and its record (the one reported). */
interface Namer {
  position: number;
  record: SampleRecord | null;
}
const NO_NAMER: Namer = { position: -1, record: null };

/** A group's verdict: the drop reason (null: kept) and, for the aborted-group filter, its namer. */
interface GroupVerdict {
  reason: string | null;
  namer: Namer;
  /** `check_reward_nonzero_std` raised on the group (a null reward): the step crashes there. */
  raised?: true;
}
const KEPT: GroupVerdict = { reason: null, namer: NO_NAMER };

/**
 * The aborted-group filter first where the framework has one (docs/semantics.md#aborted-group-filter),
 * then the dynamic filter on survivors (#zero-std-filter) with the framework's threshold.
 */
function filterGroup(g: SampleGroup, settings: RolloutLensSettings, rules: SampleFrameworkRules, slimeLists: boolean, report: Report): GroupVerdict {
  const members = g.members;
  const aborted = rules.abortedGroupFilter ? abortedFilter(members) : null;
  if (aborted) {
    const namer = { position: aborted.namer, record: members.record(aborted.namer) };
    report(
      'group-dropped',
      namer.record,
      () => groupDroppedMessage(aborted.reason, g.key, members, aborted.namer, settings),
      relatedMembers(members, aborted.namer),
    );
    return { reason: aborted.reason, namer };
  }
  if (settings.dynamicFilter !== 'check_reward_nonzero_std') return KEPT;
  // slime 624b824 hands the filter each rollout as the list of its samples, which has no
  // get_reward_value (miles main flattens the group first): the filter raises before any reward is read.
  if (slimeLists) {
    const wide = rolloutsOf(members).find((r) => r.length > 1);
    report(
      'filter-crash',
      members.record(0),
      () => slimeListsCrashMessage(g.key, rolloutCount(members), members.length, wide === undefined ? null : members.line(wide[0]), rules.versionOwner),
      relatedMembers(members, 0),
    );
    return { ...KEPT, raised: true };
  }
  const verdict = zeroStdFilter(members, rules.zeroStdThreshold);
  if (verdict.kind === 'kept-null-reward') {
    const at = members.record(verdict.position);
    report(
      'filter-crash',
      at,
      () => filterCrashMessage(g.key, members.length, at.line, zeroStdFilterError(settings.rewardKey), rules.versionOwner),
      relatedMembers(members, verdict.position),
    );
    return { ...KEPT, raised: true };
  }
  if (verdict.kind !== 'dropped') return KEPT;
  report(
    'zero-std-group',
    members.record(0),
    () => zeroStdMessage(verdict.reason, g.key, members, verdict.std, rules.zeroStdThreshold),
    relatedMembers(members, 0),
  );
  return { reason: verdict.reason, namer: NO_NAMER };
}

/** Per-sample cause checks (docs/semantics.md#failure-causes), independent of the group's fate. */
function checkCause(
  members: SampleList,
  k: number,
  format: FormatId,
  causeClasses: CauseClasses,
  /** The aborted-group filter runs: an aborted sample is discarded, its cause names the drop. */
  abortsDropped: boolean,
  namer: Namer,
  groupReason: string | null,
  report: Report,
): void {
  const aborted = members.aborted(k);
  const cause = members.cause(k);
  if (aborted && (cause === null || cause === '')) {
    // verl records no causes and drops nothing, and slime keeps aborted samples, so an unknown cause
    // there names no drop.
    if (abortsDropped) {
      const s = memberRecord(members, k, namer);
      report('abort-cause-unknown', s, () => abortCauseUnknownMessage(s, namer.record, format === 'miles-trajectory'), []);
    }
    return;
  }
  const cls = causeClasses.of(cause);
  if (aborted && cls === 'policy' && abortsDropped) {
    const s = memberRecord(members, k, namer);
    report('policy-failure-discarded', s, () => policyDiscardedMessage(s), []);
  }
  if (!aborted && cls === 'infrastructure') {
    const s = memberRecord(members, k, namer);
    report('infra-failure-scored', s, () => infraScoredMessage(s, groupReason), []);
  }
}

/** Member `k` as a record, made for a finding; the namer's is the one its group's finding names. */
function memberRecord(members: SampleList, k: number, namer: Namer): SampleRecord {
  return k === namer.position && namer.record !== null ? namer.record : members.record(k);
}

function linesOf(store: SampleColumns, rows: Int32Array, from: number, to: number): number[] {
  return Array.from(rows.subarray(from, to), (r) => store.lineAt(r));
}

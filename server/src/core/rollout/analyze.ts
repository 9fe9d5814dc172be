// Rollout (training) analysis (docs/semantics.md#aborted-group-filter): re-runs miles' aborted-group filter and the optional
// dynamic filter `check_reward_nonzero_std` on one file's samples, recomputes the drop metrics
// `rollout/dynamic_filter/drop_<reason>`, and judges every failure cause (§2.4) and group (§2.5).
import type { RolloutLensSettings } from '../settings';
import { abortedReason, classifyCause, dropMetricName } from '../causes';
import { severityOf, type FindingCode } from '../catalog';
import type { FormatId, Finding, GroupCounts, GroupOutcome, GroupVerdicts, SampleRecord } from '../types';
import { abortedFilter, ZERO_STD_THRESHOLD, zeroStdFilter } from './filters';
import { inGroupOrder, type SampleGroup } from './groups';
import { abortCauseUnknownMessage, groupDroppedMessage, infraScoredMessage, policyDiscardedMessage, spreadPromptMessage, zeroStdMessage } from './messages';
import { incompleteGroups, mixedPrompts, type ShapeProblem } from './shape';
import { SampleStore } from '../sampleStore';
import { crashMessage, milesSampleMetrics, repetitionCrashMessage } from '../eval/milesMetrics';

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
 * at a time from the store's group ids, so the analysis holds one group's records at once, not the
 * file's. `keepGroups: false` leaves `groups` empty (the CLI's report needs only the counts);
 * `'verdicts'` keeps each group's verdict in a typed array by group id instead (the editor's run
 * views over large folders).
 */
export function analyzeRollout(
  file: string,
  format: FormatId,
  samples: readonly SampleRecord[] | SampleStore,
  settings: RolloutLensSettings,
  keepGroups: boolean | 'verdicts' = true,
  /**
   * Keep at most this many findings, the first by line (ties: the order they were found), and count
   * the rest in `leftOut`: the report keeps only `maxProblems` per file anyway (see `capFindings`),
   * so a file of a million samples need not hold a message for each of its dropped groups.
   */
  findingLimit = Infinity,
): RolloutResult {
  // verl has no aborted-group filter: it masks empty responses (response_length == 0) out of the
  // loss and its means instead of dropping the group, and `check_reward_nonzero_std` is miles'
  // filter (verl's DAPO group filter logs under other names). So a verl file gets groups and the
  // shape checks, but no `group_has_aborted_*` / `zero_std_*` drops.
  const filtersRun = format !== 'verl-rollout' && format !== 'verl-validation';
  const store = samples instanceof SampleStore ? samples : SampleStore.of(samples);
  // Findings in the order the checks ran over all groups (cause checks, then group sizes, then
  // prompts), so the stable sort by line below orders findings on one line as it always has.
  const main = new FirstFindings(findingLimit);
  const sizes = new FirstFindings(findingLimit);
  const mixed = new FirstFindings(findingLimit);
  const outcomes: GroupOutcome[] = [];
  const metrics: Record<string, number> = {};
  let total = 0;
  let dropped = 0;
  const reasonOf = keepGroups === 'verdicts' ? new Int32Array(store.groupKeys.size) : null;
  const reasonIds = new Map<string, number>();

  const into =
    (list: FirstFindings): Report =>
    (code, at, message, related) => {
      if (!list.wants(at.line)) return;
      list.push({
        code,
        severity: severityOf(code),
        file,
        line: at.line,
        message: message(),
        group: at.groupKey,
        dataset: at.dataset,
        fix: null,
        ...(related.length > 0 ? { related: related.map((s) => ({ file, line: s.line })) } : {}),
      });
    };
  const finding = into(main);
  const prompts = new PromptSpread(store);

  // Samples without a group key belong to no group (see groupSamples); only their causes are checked.
  const plain = new PlainGroups(store, settings, filtersRun);
  const ungrouped = eachGroup(
    store,
    (gid, rows, from, to) => {
      if (plain.test(rows, from, to)) {
        total++;
        if (keepGroups === true)
          outcomes.push({ key: store.groupKeys.value(gid) as string, lines: linesOf(store, rows, from, to), kept: true, reason: null, metric: null });
        prompts.addRows(rows, from, to);
        return true;
      }
      const reason = filtersRun ? plain.quietAbort(rows, from, to, main, sizes, mixed) : null;
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
      prompts.addRows(rows, from, to);
      return true;
    },
    (g, rowOf) => {
      const { outcome, namer } = filtersRun ? filterGroup(g, settings, finding) : { outcome: keptOutcome(g), namer: null };
      total++;
      if (!outcome.kept) dropped++;
      if (keepGroups === true) outcomes.push(outcome);
      else if (reasonOf !== null && !outcome.kept) {
        const reason = outcome.reason ?? 'unknown';
        let id = reasonIds.get(reason);
        if (id === undefined) reasonIds.set(reason, (id = reasonIds.size + 1));
        reasonOf[store.groupId(rowOf(g.members[0]))] = id;
      }
      if (outcome.metric !== null) metrics[outcome.metric] = (metrics[outcome.metric] ?? 0) + 1;
      for (const s of g.members) checkCause(s, format, settings, filtersRun, namer, outcome.reason, finding);
      for (const p of incompleteGroups([g], settings.nSamplesPerPrompt)) into(sizes)(p.code, p.at, () => p.message, p.related);
      const odd = mixedPrompts(g);
      if (odd !== null) into(mixed)(odd.code, odd.at, () => odd.message, odd.related);
      prompts.addRows(g.members.map(rowOf));
    },
  );
  for (const row of ungrouped) checkCause(store.at(row), format, settings, filtersRun, null, null, finding);
  const spread = new FirstFindings(findingLimit);
  for (const p of prompts.problems()) into(spread)(p.code, p.at, () => p.message, p.related);

  const sampleMetrics: Record<string, number> = {};
  if (format === 'miles-sample' || format === 'miles-pt') {
    // Read from the store's columns: no record is built but those of a crash group.
    const perSample = milesSampleMetrics(store);
    for (const [k, v] of Object.entries(perSample.metrics)) sampleMetrics[`rollout/${k}`] = v;
    // A group with an aborted member is gone before miles logs (check_no_aborted); one whose rewards
    // are all null without an abort reaches the zero-std count and its round(None).
    const crash = perSample.crashGroups.filter((g) => !g.members.some((s) => s.aborted));
    if (crash.length > 0)
      finding(
        'metrics-crash',
        crash[0].first,
        () => crashMessage('rollout/zero_std/…', crash.length),
        crash.slice(1).map((g) => g.first),
      );
    const rep = perSample.repetitionCrash;
    if (rep !== null) finding('metrics-crash', rep.first, () => repetitionCrashMessage('rollout/repetition_frac', rep), []);
  }

  // Stable: on one line, the group's finding comes before the sample's own cause findings.
  const lists = [main, sizes, mixed, spread];
  const all = lists.flatMap((l) => l.list()).sort((a, b) => a.line - b.line);
  const findings = all.length > findingLimit ? all.slice(0, findingLimit) : all;
  const leftOut = lists.reduce((n, l) => n + l.leftOut, 0) + (all.length - findings.length);
  const result: RolloutResult = { groups: outcomes, counts: { total, kept: total - dropped, dropped }, metrics, sampleMetrics, findings, leftOut };
  if (reasonOf !== null) result.verdicts = { reasonOf, reasons: [...reasonIds.keys()] };
  return result;
}

/**
 * The first `limit` findings of one check by line, ties in the order found: trimming each check's
 * list so leaves the first `limit` of all checks together unchanged (a finding among those is
 * among the first `limit` of its own list).
 */
class FirstFindings {
  private items: Finding[] = [];
  leftOut = 0;
  /** Once `limit` findings are kept: a finding on this line or after can no longer be among them. */
  private cutoff = Infinity;

  constructor(private readonly limit: number) {}

  /** Whether `wants` is false for every line from `line` on (so a finding there is only counted). */
  wantsNone(line: number): boolean {
    return !(this.limit > 0 && line < this.cutoff);
  }

  /** False (and counted as left out) for a finding that cannot be among the first `limit`. */
  wants(line: number): boolean {
    if (this.limit > 0 && line < this.cutoff) return true;
    this.leftOut++;
    return false;
  }

  push(f: Finding): void {
    this.items.push(f);
    // Sorting as soon as `limit` are held sets the cutoff early (a scan's groups come in line order).
    if (this.items.length === this.limit || this.items.length >= 2 * this.limit + 64) this.trim();
  }

  private trim(): void {
    if (this.items.length < this.limit || this.limit === 0) return;
    this.items.sort((a, b) => a.line - b.line);
    this.leftOut += this.items.length - this.limit;
    this.items.length = this.limit;
    this.cutoff = this.items[this.limit - 1].line;
  }

  list(): Finding[] {
    this.trim();
    return this.items;
  }
}

/**
 * Calls `visit` with each group (members in group order, `rowOf` their rows in the store) in file
 * order (by the line of the first-written member); returns the rows without a group key. Each
 * group's rows (in row order, `rows[from, to)`) go to `visitRows` first: when it takes the group (true), no record
 * of it is built.
 */
function eachGroup(
  store: SampleStore,
  visitRows: (groupId: number, rows: Int32Array, from: number, to: number) => boolean,
  visit: (g: SampleGroup, rowOf: (s: SampleRecord) => number) => void,
): Int32Array {
  const n = store.length;
  const groupCount = store.groupKeys.size;
  const starts = new Int32Array(groupCount + 1);
  const firstLine = new Float64Array(groupCount).fill(Infinity);
  let ungroupedCount = 0;
  for (let i = 0; i < n; i++) {
    const g = store.groupId(i);
    if (g < 0) {
      ungroupedCount++;
      continue;
    }
    starts[g + 1]++;
    const line = store.lineAt(i);
    if (line < firstLine[g]) firstLine[g] = line;
  }
  for (let g = 0; g < groupCount; g++) starts[g + 1] += starts[g];
  const rows = new Int32Array(n - ungroupedCount);
  const ungrouped = new Int32Array(ungroupedCount);
  const fill = starts.slice(0, groupCount);
  let u = 0;
  for (let i = 0; i < n; i++) {
    const g = store.groupId(i);
    if (g < 0) ungrouped[u++] = i;
    else rows[fill[g]++] = i;
  }
  // Group ids are first-appearance ordinals, which is file order when the rows are (a scan's are).
  let order: ArrayLike<number> | null = null;
  for (let g = 1; g < groupCount && order === null; g++) {
    if (firstLine[g] < firstLine[g - 1]) order = Array.from({ length: groupCount }, (_, k) => k).sort((a, b) => firstLine[a] - firstLine[b]);
  }
  for (let k = 0; k < groupCount; k++) {
    const g = order === null ? k : order[k];
    // The group's rows are rows[from, to): passed as a range (no view made for each group).
    if (visitRows(g, rows, starts[g], starts[g + 1])) continue;
    const memberRows = rows.subarray(starts[g], starts[g + 1]);
    const members: SampleRecord[] = [];
    let sorted = true;
    for (let r = starts[g]; r < starts[g + 1]; r++) {
      const s = store.at(rows[r]);
      const prev = members.length > 0 ? members[members.length - 1] : null;
      // Already in group order (rows are in line order): ascending index, or no index at all.
      if (prev !== null && (prev.line > s.line || (prev.index === null) !== (s.index === null) || (s.index !== null && (prev.index as number) > s.index)))
        sorted = false;
      members.push(s);
    }
    if (sorted) {
      visit({ key: store.groupKeys.value(g) as string, members }, (s) => memberRows[members.indexOf(s)]);
      continue;
    }
    const rowOf = new Map<SampleRecord, number>(members.map((s, m) => [s, memberRows[m]]));
    visit({ key: store.groupKeys.value(g) as string, members: inGroupOrder(members) }, (s) => rowOf.get(s) as number);
  }
  return ungrouped;
}

/**
 * A prompt found in several groups (reported once per prompt, at its first sample in its second
 * group; docs/semantics.md#group-shape), tracked by rows so no record outlives its group.
 */
class PromptSpread {
  /** By prompt id (the store's string id): row of its first sample in the first group it appeared in, or -1. */
  private first = new Int32Array(0);
  /** By prompt id: group id of the last group it was seen in. */
  private lastGroup = new Int32Array(0);
  /** Prompt ids in order of first appearance. */
  private order: number[] = [];
  /** Prompt id → rows of its first sample in each later group. */
  private readonly later = new Map<number, number[]>();

  constructor(private readonly store: SampleStore) {}

  /** A group's rows `rows[from, to)`, in group order. */
  addRows(rows: ArrayLike<number>, from = 0, to = rows.length): void {
    for (let m = from; m < to; m++) {
      const row = rows[m];
      const pid = this.store.promptIdAt(row);
      if (pid < 0) continue;
      const gid = this.store.groupId(row);
      if (pid >= this.first.length) this.grow(pid);
      if (this.first[pid] < 0) {
        this.first[pid] = row;
        this.lastGroup[pid] = gid;
        this.order.push(pid);
        continue;
      }
      if (this.lastGroup[pid] === gid) continue;
      this.lastGroup[pid] = gid;
      const later = this.later.get(pid);
      if (later) later.push(row);
      else this.later.set(pid, [row]);
    }
  }

  private grow(pid: number): void {
    const size = Math.max(pid + 1, this.store.strings.size, 2 * this.first.length);
    const first = new Int32Array(size).fill(-1);
    first.set(this.first);
    const last = new Int32Array(size);
    last.set(this.lastGroup);
    this.first = first;
    this.lastGroup = last;
  }

  problems(): ShapeProblem[] {
    const out: ShapeProblem[] = [];
    for (const pid of this.order) {
      const rows = this.later.get(pid);
      if (rows === undefined) continue;
      const entries = [this.first[pid], ...rows].map((r) => this.store.at(r));
      const at = entries[1];
      out.push({
        code: 'misgrouped',
        at,
        group: at.groupKey as string,
        message: spreadPromptMessage(entries.map((e) => e.groupKey as string)),
        related: entries.filter((e) => e !== at),
      });
    }
    return out;
  }
}

/**
 * Groups whose outcome the columns decide: kept, with no finding of any check (`filterGroup`,
 * `checkCause`, `incompleteGroups`, `mixedPrompts`), already in group order. Those are most groups
 * of a large file; the analysis counts them without building their records. Any other group is
 * materialised and goes through the checks themselves.
 */
class PlainGroups {
  /** By cause code (`SampleStore.causeCodeAt`): 1 when a non-aborted sample with it is reported, 2 when not, 0 not known yet. */
  private causeFinding = new Uint8Array(16);
  private readonly zeroStd: boolean;

  constructor(
    private readonly store: SampleStore,
    private readonly settings: RolloutLensSettings,
    filtersRun: boolean,
  ) {
    this.zeroStd = filtersRun && settings.dynamicFilter === 'check_reward_nonzero_std';
  }

  /**
   * A group with an aborted member whose findings all fall after the ones kept (`FirstFindings`
   * cutoffs): dropped by the aborted-group filter, its findings only counted as left out, exactly
   * as `filterGroup`, `checkCause`, `incompleteGroups` and `mixedPrompts` count them. Returns the
   * drop reason, or null when the group must go through those checks (a finding may be kept; not
   * in group order; verl rows).
   */
  quietAbort(rows: Int32Array, from: number, to: number, main: FirstFindings, sizes: FirstFindings, mixed: FirstFindings): string | null {
    const store = this.store;
    const n = to - from;
    if (n === 0) return null;
    const first = store.lineAt(rows[from]);
    if (!main.wantsNone(first)) return null;
    let namer = -1;
    let prompt = -1;
    let mixedPrompts = false;
    let prevLine = -1;
    let prevIndex: number | null = null;
    for (let m = 0; m < n; m++) {
      const row = rows[from + m];
      if (store.hasExtras(row)) return null;
      const line = store.lineAt(row);
      const index = store.indexAt(row);
      if (m > 0 && (prevLine > line || (prevIndex === null) !== (index === null) || (index !== null && (prevIndex as number) > index))) return null;
      prevLine = line;
      prevIndex = index;
      if (namer < 0 && store.abortedAt(row)) namer = row;
      const pid = store.promptIdAt(row);
      if (pid >= 0) {
        if (prompt < 0) prompt = pid;
        else if (pid !== prompt) mixedPrompts = true;
      }
    }
    if (namer < 0) return null;
    const want = this.settings.nSamplesPerPrompt;
    const sized = want !== null && n !== want;
    // The other lists matter only when the group has a finding for them.
    if ((sized && !sizes.wantsNone(first)) || (mixedPrompts && !mixed.wantsNone(first))) return null;
    const reason = abortedReason(store.labels.value(store.causeCodeAt(namer) - 1));
    main.wants(first); // the group-dropped finding, at the namer
    for (let m = 0; m < n; m++) {
      const row = rows[from + m];
      const code = store.causeCodeAt(row);
      if (store.abortedAt(row)) {
        const cause = store.labels.value(code - 1);
        if (cause === null || cause === '' || this.causeClass(code) === 'policy') main.wants(first);
      } else if (this.causeClass(code) === 'infrastructure') main.wants(first);
    }
    if (sized) sizes.wants(first);
    if (mixedPrompts) mixed.wants(first);
    return reason;
  }

  /** `rows[from, to)`: a group's rows in row order. */
  test(rows: Int32Array, from: number, to: number): boolean {
    const store = this.store;
    const n = to - from;
    const want = this.settings.nSamplesPerPrompt;
    if (want !== null && n !== want) return false;
    let prompt = -1;
    let prevLine = -1;
    let prevIndex: number | null = null;
    let mean = 0;
    let m2 = 0;
    for (let m = 0; m < n; m++) {
      const row = rows[from + m];
      if (store.abortedAt(row) || store.hasExtras(row)) return false;
      // Group order is row order: lines ascending, and indexes ascending or all null (`eachGroup`).
      const line = store.lineAt(row);
      const index = store.indexAt(row);
      if (m > 0 && (prevLine > line || (prevIndex === null) !== (index === null) || (index !== null && (prevIndex as number) > index))) return false;
      prevLine = line;
      prevIndex = index;
      const pid = store.promptIdAt(row);
      if (pid >= 0) {
        if (prompt < 0) prompt = pid;
        else if (pid !== prompt) return false;
      }
      if (this.causeReported(store.causeCodeAt(row))) return false;
      if (this.zeroStd) {
        const x = store.rewardAt(row);
        if (x === null) return false;
        // `unbiasedStd`'s steps, in the same order: the same float64 result.
        const delta = x - mean;
        mean += delta / (m + 1);
        m2 += delta * (x - mean);
      }
    }
    // NaN (fewer than two members, NaN rewards) is not above the threshold: the filter decides.
    return !this.zeroStd || (n >= 2 && Math.sqrt(m2 / (n - 1)) > ZERO_STD_THRESHOLD);
  }

  private readonly classes: (ReturnType<typeof classifyCause> | undefined)[] = [];

  /** The class of a cause code's cause (`classifyMemo`). */
  private causeClass(code: number): ReturnType<typeof classifyCause> {
    let cls = this.classes[code];
    if (cls === undefined) {
      cls = classifyMemo(this.store.labels.value(code - 1), this.settings);
      this.classes[code] = cls;
    }
    return cls;
  }

  /** Whether `checkCause` reports a non-aborted sample with this cause. */
  private causeReported(code: number): boolean {
    if (code >= this.causeFinding.length) {
      const grown = new Uint8Array(Math.max(code + 1, 2 * this.causeFinding.length));
      grown.set(this.causeFinding);
      this.causeFinding = grown;
    }
    let v = this.causeFinding[code];
    if (v === 0) {
      v = classifyMemo(this.store.labels.value(code - 1), this.settings) === 'infrastructure' ? 1 : 2;
      this.causeFinding[code] = v;
    }
    return v === 1;
  }
}

/** `message` is built only for a finding that can still be among the first `findingLimit`. */
type Report = (code: FindingCode, at: SampleRecord, message: () => string, related: readonly SampleRecord[]) => void;

/** The aborted-group filter first (§2.1), then the dynamic filter on survivors (§2.2). */
function filterGroup(g: SampleGroup, settings: RolloutLensSettings, report: Report): { outcome: GroupOutcome; namer: SampleRecord | null } {
  const aborted = abortedFilter(g.members);
  if (aborted) {
    const others = g.members.filter((s) => s !== aborted.namer);
    report('group-dropped', aborted.namer, () => groupDroppedMessage(aborted.reason, g.key, g.members, aborted.namer, settings), others);
    return { outcome: droppedOutcome(g, aborted.reason), namer: aborted.namer };
  }
  if (settings.dynamicFilter !== 'check_reward_nonzero_std') return { outcome: keptOutcome(g), namer: null };
  const verdict = zeroStdFilter(g.members);
  if (verdict.kind !== 'dropped') return { outcome: keptOutcome(g), namer: null };
  const [first, ...others] = g.members;
  report('zero-std-group', first, () => zeroStdMessage(verdict.reason, g.key, g.members, verdict.std), others);
  return { outcome: droppedOutcome(g, verdict.reason), namer: null };
}

/** Per-sample cause checks (§2.4), independent of the group's fate. */
function checkCause(
  s: SampleRecord,
  format: FormatId,
  settings: RolloutLensSettings,
  filtersRun: boolean,
  namer: SampleRecord | null,
  groupReason: string | null,
  report: Report,
): void {
  if (s.aborted && (s.cause === null || s.cause === '')) {
    // verl records no causes and drops nothing, so an unknown cause there says nothing new.
    if (filtersRun) report('abort-cause-unknown', s, () => abortCauseUnknownMessage(s, namer, format === 'miles-trajectory'), []);
    return;
  }
  const cls = classifyMemo(s.cause, settings);
  if (s.aborted && cls === 'policy') report('policy-failure-discarded', s, () => policyDiscardedMessage(s), []);
  if (!s.aborted && cls === 'infrastructure') report('infra-failure-scored', s, () => infraScoredMessage(s, groupReason), []);
}

/** Causes repeat across a file's samples; settings stay the same for a whole analysis. */
let memoSettings: RolloutLensSettings | null = null;
const memoClass = new Map<string | null, ReturnType<typeof classifyCause>>();
function classifyMemo(cause: string | null, settings: RolloutLensSettings): ReturnType<typeof classifyCause> {
  if (settings !== memoSettings || memoClass.size > 4096) {
    memoSettings = settings;
    memoClass.clear();
  }
  let cls = memoClass.get(cause);
  if (cls === undefined) {
    cls = classifyCause(cause, settings);
    memoClass.set(cause, cls);
  }
  return cls;
}

function linesOf(store: SampleStore, rows: Int32Array, from: number, to: number): number[] {
  return Array.from(rows.subarray(from, to), (r) => store.lineAt(r));
}

function keptOutcome(g: SampleGroup): GroupOutcome {
  return { key: g.key, lines: g.members.map((s) => s.line), kept: true, reason: null, metric: null };
}

function droppedOutcome(g: SampleGroup, reason: string): GroupOutcome {
  return { key: g.key, lines: g.members.map((s) => s.line), kept: false, reason, metric: dropMetricName(reason) };
}

// Groups the columns decide without building their records (kept and quiet, or dropped quietly).
import type { RolloutLensSettings } from '../vocabulary/settings';
import { abortedReason, classifyCause } from '../vocabulary/causes';
import type { SampleColumns } from '../store/sampleColumns';
import { sampleRulesOf, type SampleFrameworkRules } from '../vocabulary/frameworks';
import type { FormatId } from '../vocabulary/types';
import { keepsStd, RunningStd } from './filters';
import type { FirstFindings } from './firstFindings';

/**
 * Groups whose outcome the columns decide: kept or dropped, with every finding of the checks
 * (`filterGroup`, `checkCause`, `incompleteGroups`, `mixedPrompts`) past the findings kept, so
 * only counted. Those are most groups of a large file; the analysis counts them without building
 * their records. Any other group is materialised and goes through the checks themselves.
 */
export class PlainGroups {
  private readonly zeroStd: boolean;
  private readonly rules: SampleFrameworkRules;
  /** The rewards' std of the group being looked at (one accumulator, reset for each group). */
  private readonly rewardStd = new RunningStd();

  constructor(
    private readonly store: SampleColumns,
    private readonly settings: RolloutLensSettings,
    filtersRun: boolean,
    format: FormatId,
  ) {
    this.zeroStd = filtersRun && settings.dynamicFilter === 'check_reward_nonzero_std';
    this.rules = sampleRulesOf(format);
  }

  /**
   * A group with an aborted member whose findings all fall after the ones kept (`FirstFindings`
   * cutoffs): dropped by the aborted-group filter, its findings only counted as left out, exactly
   * as `filterGroup`, `checkCause`, `incompleteGroups` and `mixedPrompts` count them. Returns the
   * drop reason, or null when the group must go through those checks (a finding may be kept; verl
   * rows). `rows[from, to)`: the group's rows in group order.
   */
  quietAbort(rows: Int32Array, from: number, to: number, main: FirstFindings, sizes: FirstFindings, mixed: FirstFindings): string | null {
    const store = this.store;
    const n = to - from;
    if (n === 0 || !this.rules.abortedGroupFilter) return null;
    let namer = -1;
    let prompt = -1;
    let mixedPrompts = false;
    for (let m = 0; m < n; m++) {
      const row = rows[from + m];
      if (store.hasExtras(row)) return null;
      if (namer < 0 && store.abortedAt(row)) namer = row;
      const pid = store.promptIdAt(row);
      if (pid >= 0) {
        if (prompt < 0) prompt = pid;
        else if (pid !== prompt) mixedPrompts = true;
      }
    }
    if (namer < 0) return null;
    const first = this.firstLine(rows, from, to);
    // group-dropped, policy-failure-discarded and infra-failure-scored are warnings; a member's
    // abort-cause-unknown is information, so it matters only when a member has no cause.
    if (!main.wantsNone(first, 'group-dropped')) return null;
    if (this.unknownCause(rows, from, to) && !main.wantsNone(first, 'abort-cause-unknown')) return null;
    const want = this.settings.nSamplesPerPrompt;
    const sized = want !== null && n !== want;
    // The other lists matter only when the group has a finding for them.
    if ((sized && !sizes.wantsNone(first, 'incomplete-group')) || (mixedPrompts && !mixed.wantsNone(first, 'misgrouped'))) return null;
    const reason = abortedReason(store.causeAt(namer));
    main.wants(first, 'group-dropped'); // at the namer
    for (let m = 0; m < n; m++) {
      const row = rows[from + m];
      const code = store.causeCodeAt(row);
      if (store.abortedAt(row)) {
        const cause = store.causeOfCode(code);
        if (cause === null || cause === '') main.wants(first, 'abort-cause-unknown');
        else if (this.causeClass(code) === 'policy') main.wants(first, 'policy-failure-discarded');
      } else if (this.causeClass(code) === 'infrastructure') main.wants(first, 'infra-failure-scored');
    }
    if (sized) sizes.wants(first, 'incomplete-group');
    if (mixedPrompts) mixed.wants(first, 'misgrouped');
    return reason;
  }

  /**
   * A kept group with no finding of those checks but `checkCause`'s on members scored despite an
   * infrastructure cause and `mixedPrompts`' one, where those fall after the findings kept (counted
   * as left out here, as the checks would count them: a misgrouped file has one in every group, a
   * run whose sandbox failed one per sample). `rows[from, to)`: the group's rows in group order.
   */
  quietKeep(rows: Int32Array, from: number, to: number, main: FirstFindings, mixed: FirstFindings): boolean {
    const store = this.store;
    const n = to - from;
    const want = this.settings.nSamplesPerPrompt;
    if (want !== null && n !== want) return false;
    let prompt = -1;
    let mixedPrompts = false;
    let scoredInfra = 0;
    const rewards = this.rewardStd;
    rewards.reset();
    for (let m = 0; m < n; m++) {
      const row = rows[from + m];
      if (store.abortedAt(row) || store.hasExtras(row)) return false;
      const pid = store.promptIdAt(row);
      if (pid >= 0) {
        if (prompt < 0) prompt = pid;
        else if (pid !== prompt) mixedPrompts = true;
      }
      if (this.causeReported(store.causeCodeAt(row))) scoredInfra++;
      if (this.zeroStd) {
        const x = store.rewardAt(row);
        if (x === null) return false;
        rewards.add(x);
      }
    }
    // A group the filter would drop (NaN: fewer than two members, NaN rewards) is left to it.
    if (this.zeroStd && !keepsStd(rewards.std, this.rules.zeroStdThreshold)) return false;
    if (!mixedPrompts && scoredInfra === 0) return true;
    // Each finding sits on a member: on the group's first line or after it.
    const first = this.firstLine(rows, from, to);
    if ((mixedPrompts && !mixed.wantsNone(first, 'misgrouped')) || (scoredInfra > 0 && !main.wantsNone(first, 'infra-failure-scored'))) return false;
    if (mixedPrompts) mixed.wants(first, 'misgrouped');
    for (let k = 0; k < scoredInfra; k++) main.wants(first, 'infra-failure-scored');
    return true;
  }

  /** Whether an aborted member of `rows[from, to)` records no cause (its finding: abort-cause-unknown). */
  private unknownCause(rows: Int32Array, from: number, to: number): boolean {
    const store = this.store;
    for (let r = from; r < to; r++) {
      if (!store.abortedAt(rows[r])) continue;
      const cause = store.causeOfCode(store.causeCodeAt(rows[r]));
      if (cause === null || cause === '') return true;
    }
    return false;
  }

  /** The least line of `rows[from, to)`: no finding of the group comes before it. */
  private firstLine(rows: Int32Array, from: number, to: number): number {
    let first = Infinity;
    for (let r = from; r < to; r++) first = Math.min(first, this.store.lineAt(rows[r]));
    return first;
  }

  /** By cause code (`SampleColumns.causeCodeAt`): its cause's class, once asked. */
  private readonly classes: (ReturnType<typeof classifyCause> | undefined)[] = [];

  /** The class of a cause code's cause (`classifyCause`), remembered by code. */
  private causeClass(code: number): ReturnType<typeof classifyCause> {
    let cls = this.classes[code];
    if (cls === undefined) {
      cls = classifyCause(this.store.causeOfCode(code), this.settings);
      this.classes[code] = cls;
    }
    return cls;
  }

  /** Whether `checkCause` reports a non-aborted sample with this cause code. */
  private causeReported(code: number): boolean {
    return this.causeClass(code) === 'infrastructure';
  }
}

// verl rollout and validation dumps (docs/semantics.md#formats): `{input, output, gts, score, step, ...extra reward
// keys, uid?}`; validation adds `reward` (and `acc`, `pred`, ...) and `data_source`.
import { Skipped } from '../reader/jsonRule';
import type { SampleRecord } from '../vocabulary/types';

import { recordDatasetName, type LineInfo, type NormalizeContext, type Normalized } from './context';
import { formatIssues } from './issues';
import { groupKeyText } from './miles';
import { resolveReward } from './reward';
import { VERL } from './members/verl';
import { validate, validator } from './validation/fast';

type Obj = Record<string, unknown>;

const ROW = validator(VERL);

/** Fields that are not per-sample numeric variables (`score`, `reward`, `acc`, ... are): the table's others. */
const NOT_VARS: ReadonlySet<string> = new Set(VERL.members.filter((m) => !(m.feeds as readonly string[]).includes('vars')).map((m) => m.name));

/**
 * verl v1 writes `uid` as `"<prompt uid>_<session>_<index>"`: the prompt uid is everything before
 * the last two `_` parts. Only stripped when both are integers, so a plain uid (a uuid, or one with
 * its own underscores) is kept whole.
 */
export function promptUid(uid: string): string {
  // Two lastIndexOf calls instead of split/join: this runs once per row.
  const last = uid.lastIndexOf('_');
  if (last <= 0) return uid;
  const second = uid.lastIndexOf('_', last - 1);
  if (second <= 0) return uid;
  return isDigits(uid, last + 1, uid.length) && isDigits(uid, second + 1, last) ? uid.slice(0, second) : uid;
}

function isDigits(s: string, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let k = from; k < to; k++) {
    const c = s.charCodeAt(k);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/**
 * verl's batch padding (`upsample_batch_to_divisible_size`: uid `pad<uuid4 hex>_<i>_0`, a prompt
 * and a response of one end token, both decoding to ""). Its metrics leave these rows out.
 */
const PADDING_UID = /^pad[0-9a-f]{32}$/;

function isEmptyText(v: unknown): boolean {
  return v === '' || (v instanceof Skipped && v.kind === 'string' && v.byteLength === 2);
}

export function normalizeVerl(o: Obj, info: LineInfo, ctx: NormalizeContext): Normalized {
  const parsed = validate(ROW, o, ctx.reference?.zodOnly);
  if (!parsed.success) return { type: 'invalid', message: formatIssues(ctx.format, parsed.error.issues, o) };
  const r = parsed.data;
  const inputHash = o.input instanceof Skipped ? o.input.hash : null;
  let groupKey: string;
  let session: string | undefined;
  let output: number | undefined;
  const uid = groupKeyText(o, 'uid', r.uid);
  if (uid !== null) {
    groupKey = promptUid(uid);
    if (groupKey !== uid) {
      const last = uid.lastIndexOf('_');
      session = uid.slice(0, last);
      output = Number(uid.slice(last + 1));
    }
  } else {
    // Legacy dump: one group per distinct input, wherever its rows are (they are scattered).
    let id = ctx.inputRun.ids.get(inputHash);
    if (id === undefined) ctx.inputRun.ids.set(inputHash, (id = ctx.inputRun.ids.size));
    groupKey = `input#${id}`;
  }
  if (output === 0 && PADDING_UID.test(groupKey) && isEmptyText(o.input) && isEmptyText(o.output)) return { type: 'padding' };
  // Validation rows carry `reward` (the score the metrics average); training rows only `score`.
  const field = r.reward !== undefined && r.reward !== null ? 'reward' : 'score';
  const reward = resolveReward(o, field, o[field] ?? null, ctx.rewardKey);
  const vars: Record<string, number> = {};
  for (const [key, value] of Object.entries(o)) {
    if (NOT_VARS.has(key)) continue;
    if (typeof value === 'number') vars[key] = value;
    else if (typeof value === 'boolean') vars[key] = value ? 1 : 0;
  }
  // verl masks rows whose response is empty (response_length == 0): they count as aborted.
  const aborted = r.output === '' || (r.output instanceof Skipped && r.output.byteLength === 2);
  const sample: SampleRecord = {
    line: info.line,
    offset: info.offset,
    byteLength: info.byteLength,
    groupKey,
    index: null,
    dataset: recordDatasetName(r, null),
    promptKey: inputHash,
    status: aborted ? 'aborted' : null,
    aborted,
    reward: reward.reward,
    rewardIsInt: reward.rewardIsInt,
    cause: null,
    responseLength: null,
    step: r.step ?? null,
    vars,
  };
  if (session !== undefined) {
    sample.session = session;
    sample.output = output;
  }
  return { type: 'sample', rewardProblem: reward.problem, sample };
}

// The `generic` format: fields mapped by JSON pointers in settings `fields.*`.
import type { GenericFieldMap } from '../vocabulary/settings';
import { Skipped } from '../reader/jsonRule';

import { causeOf, type LineInfo, type NormalizeContext, type Normalized } from './context';
import { formatIssues } from './issues';
import { groupKeyText } from './miles';
import { parsePointer, resolvePath } from './pointer';
import { resolveReward } from './reward';
import { abortedByStatus } from './members/checks';
import { GENERIC } from './members/generic';
import { validate, validator } from './validation/fast';

type Field = keyof GenericFieldMap;

const FIELDS = validator(GENERIC);

/** The mapped fields' values, and the objects holding them (for int literals). */
function gather(o: unknown, fields: GenericFieldMap): { values: Record<string, unknown>; holders: Record<string, unknown> } {
  const values: Record<string, unknown> = {};
  const holders: Record<string, unknown> = {};
  for (const [name, pointer] of Object.entries(fields) as [Field, string | undefined][]) {
    if (typeof pointer !== 'string') continue;
    let path: string[];
    try {
      path = parsePointer(pointer);
    } catch {
      continue;
    }
    holders[name] = resolvePath(o, path.slice(0, -1));
    values[name] = resolvePath(o, path);
  }
  return { values, holders };
}

function lastKey(pointer: string | undefined): string {
  if (!pointer) return '';
  try {
    return parsePointer(pointer).at(-1) ?? '';
  } catch {
    return '';
  }
}

export function normalizeGeneric(o: unknown, info: LineInfo, ctx: NormalizeContext): Normalized {
  const fields = ctx.settings.fields;
  const { values, holders } = gather(o, fields);
  const parsed = validate(FIELDS, values, ctx.reference?.zodOnly);
  if (!parsed.success) {
    const name = (path: string[]) => (path[0] ? `${path[0]} (${fields[path[0] as Field] ?? '?'})` : '');
    return { type: 'invalid', message: formatIssues('generic', parsed.error.issues, values, name) };
  }
  const r = parsed.data;
  const reward = resolveReward(holders.reward, lastKey(fields.reward), r.reward ?? null, ctx.rewardKey);
  const prompt = values.prompt;
  const promptKey = prompt instanceof Skipped ? prompt.hash : typeof prompt === 'string' ? prompt : null;
  return {
    type: 'sample',
    rewardProblem: reward.problem,
    sample: {
      line: info.line,
      offset: info.offset,
      byteLength: info.byteLength,
      groupKey: groupKeyText(holders.groupKey, lastKey(fields.groupKey), r.groupKey),
      index: r.index ?? null,
      dataset: r.dataset ?? null,
      promptKey,
      status: r.status ?? null,
      aborted: abortedByStatus(r.status ?? null),
      reward: reward.reward,
      rewardIsInt: reward.rewardIsInt,
      cause: causeOf(r.cause),
      responseLength: r.responseLength ?? null,
      step: null,
    },
  };
}

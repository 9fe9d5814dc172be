// One scanned record → SampleRecord / MetricsRecord for the file's format, or why it is invalid.
import { describeValue } from './issues';
import type { LineInfo, NormalizeContext, Normalized } from './context';
import { normalizeGeneric } from './generic';
import { normalizeMilesMetrics, normalizeMilesTrajectory, normalizeMilesTrials } from './miles';
import { normalizeMilesSample } from './milesSample/reference';
import { isPlainObject } from './members/checks';
import { normalizeVerl } from './verl';

export function normalizeRecord(value: unknown, info: LineInfo, ctx: NormalizeContext): Normalized {
  if (!isPlainObject(value)) {
    return { type: 'invalid', message: `invalid ${ctx.format} record: a line must be a JSON object, got ${describeValue(value)}` };
  }
  switch (ctx.format) {
    case 'miles-sample':
    case 'miles-pt':
    case 'slime-sample':
    case 'slime-pt':
      return normalizeMilesSample(value, info, ctx);
    case 'miles-trajectory':
      return normalizeMilesTrajectory(value, info, ctx);
    case 'miles-eval-trials':
      return normalizeMilesTrials(value, info, ctx);
    case 'miles-metrics':
      return normalizeMilesMetrics(value, info, ctx);
    case 'verl-rollout':
    case 'verl-validation':
      return normalizeVerl(value, info, ctx);
    case 'generic':
      return normalizeGeneric(value, info, ctx);
    case 'unknown':
      return { type: 'invalid', message: 'unknown format' };
  }
}

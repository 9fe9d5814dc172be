// The members of verl's rollout and validation dumps the analysis reads (docs/semantics.md#formats):
// `{input, output, gts, score, step, ...extra reward keys, uid?}`; validation adds `reward` (and
// `acc`, `pred`, ...) and `data_source`. Every other numeric member is a per-sample variable
// (`vars`): a member listed here without `vars` among its feeds is not one.
import type { MemberTable } from './checks';

export const VERL = {
  name: 'verl',
  members: [
    { name: 'input', check: 'present', required: true, feeds: ['promptKey', 'groupKey'], build: 'hash' },
    { name: 'output', check: 'anyString', required: true, feeds: ['status', 'aborted'] },
    { name: 'score', check: 'number', feeds: ['reward', 'vars'] },
    { name: 'reward', check: 'number', feeds: ['reward', 'vars'] },
    { name: 'step', check: 'number', feeds: ['step'] },
    { name: 'uid', check: 'id', feeds: ['groupKey', 'session', 'output'] },
    { name: 'data_source', check: 'text', feeds: ['dataset'] },
    { name: 'gts', check: null, feeds: [] },
    { name: 'request_id', check: null, feeds: [] },
  ],
} as const satisfies MemberTable;

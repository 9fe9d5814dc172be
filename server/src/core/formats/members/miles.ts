// The members of miles' (and slime's, which writes the same `Sample.to_dict()`) records that the
// analysis reads: one table per record shape. A member is added here and nowhere else for the zod
// schema and the fast validation (built from these), the scanner's rule (its `build`), and the
// per-line path's and the `.pt` reader's key tables and slots (positions below, read by the
// member's `read` kind); a member that feeds a record field needs the field made from its slot in
// those two paths as well (test/unit/formats/memberTables.test.ts fails until each path reads it).
import { type Member, type MemberTable, position } from './checks';

/** `Sample.to_dict()`'s `metadata`, as far as the analysis reads it. */
export const MILES_METADATA = {
  name: 'metadata',
  members: [
    { name: 'exit_status', check: 'text', feeds: ['cause'], read: 'shortText' },
    { name: 'dataset', check: 'text', feeds: ['dataset'], read: 'shortText' },
    { name: 'dataset_name', check: 'text', feeds: ['dataset'], read: 'shortText' },
    { name: 'instance_id', check: 'id', feeds: ['promptKey'], read: 'id' },
    // An object reward here keeps its named scalar values for the full scan; the twins skip it.
    { name: 'reward', check: null, feeds: [], build: 'scalars', read: 'skip' },
  ],
} as const satisfies MemberTable;

/** The members shared by every miles record that carries a dataset. */
const DATASET_MEMBERS = [
  { name: 'dataset', check: 'text', feeds: ['dataset'], read: 'shortText' },
  { name: 'data_source', check: 'text', feeds: ['dataset'], read: 'shortText' },
  { name: 'metadata', check: MILES_METADATA, feeds: ['cause', 'dataset', 'promptKey'], build: 'scalars', read: 'table' },
] as const satisfies readonly Member[];

/**
 * miles `Sample.to_dict()` (the rollout and eval dumps, `.pt` samples, slime's samples). The
 * unchecked members at the end are read by the format's own rules (docs/semantics.md#miles-sample-metrics).
 */
export const MILES_SAMPLE = {
  name: 'miles-sample',
  members: [
    { name: 'group_index', check: 'integer', feeds: ['groupKey'], read: 'groupKey' },
    { name: 'index', check: 'integer', feeds: ['index'], read: 'integer' },
    { name: 'rollout_id', check: 'integer', feeds: ['rolloutId'], read: 'integer' },
    { name: 'status', check: 'status', feeds: ['status', 'aborted'], read: 'status' },
    { name: 'reward', check: 'reward', feeds: ['reward'], build: 'scalars', read: 'reward' },
    { name: 'response_length', check: 'integer', feeds: ['responseLength', 'miles.effectiveLength'], read: 'integer' },
    ...DATASET_MEMBERS,
    { name: 'prompt', check: null, feeds: ['promptKey'], build: 'hash', read: 'promptHash' },
    { name: 'label', check: null, feeds: ['promptKey'], build: 'hash', read: 'promptHash' },
    // miles' per-sample metric inputs (docs/semantics.md#miles-sample-metrics).
    { name: 'loss_mask', check: null, feeds: ['miles.effectiveLength'], build: 'sum', read: 'sum' },
    { name: 'weight_versions', check: null, feeds: ['miles.weightVersions'], build: 'list', read: 'list' },
    { name: 'prefix_cache_info', check: null, feeds: ['miles.cachedTokens', 'miles.totalPromptTokens'], build: 'scalars', read: 'scalars' },
    { name: 'response', check: null, feeds: ['miles.repetition'], build: 'tail', read: 'tail' },
  ],
} as const satisfies MemberTable;

/** `--dump-details` trajectories. */
export const MILES_TRAJECTORY = {
  name: 'miles-trajectory',
  members: [
    { name: 'sample_index', check: 'integer', required: true, feeds: ['index'] },
    { name: 'group_index', check: 'integer', feeds: ['groupKey'] },
    { name: 'status', check: 'status', feeds: ['status', 'aborted'] },
    { name: 'reward', check: 'reward', feeds: ['reward'], build: 'scalars' },
    ...DATASET_MEMBERS,
    { name: 'prompt', check: null, feeds: ['promptKey'], build: 'hash' },
  ],
} as const satisfies MemberTable;

/** The agent-server eval scripts' trials. */
export const MILES_TRIALS = {
  name: 'miles-eval-trials',
  members: [
    { name: 'instance_id', check: 'id', required: true, feeds: ['groupKey', 'promptKey'] },
    { name: 'trial_idx', check: 'integer', feeds: ['index'] },
    { name: 'status_code', check: 'integer', feeds: ['status', 'aborted'] },
    { name: 'elapsed_sec', check: 'number', feeds: [] },
    { name: 'reward', check: 'reward', feeds: ['reward'], build: 'scalars' },
    { name: 'exit_status', check: 'text', feeds: ['cause', 'status', 'aborted'] },
    ...DATASET_MEMBERS,
    { name: 'error', check: null, feeds: ['status', 'aborted'] },
  ],
} as const satisfies MemberTable;

/** The dashboard's metrics.jsonl. */
export const MILES_METRICS = {
  name: 'miles-metrics',
  members: [
    { name: 'step', check: 'number', feeds: ['step'] },
    { name: 'step_key', check: 'text', feeds: [] },
    { name: 'metrics', check: 'object', required: true, feeds: ['metrics'], build: 'scalars' },
  ],
} as const satisfies MemberTable;

// Positions in MILES_SAMPLE and MILES_METADATA: the slots the per-line path (milesSample/line.ts)
// and the `.pt` reader (scan/ptSampleRecord.ts) make their records from.
export const GROUP_INDEX = position(MILES_SAMPLE, 'group_index');
export const INDEX = position(MILES_SAMPLE, 'index');
export const ROLLOUT_ID = position(MILES_SAMPLE, 'rollout_id');
export const STATUS = position(MILES_SAMPLE, 'status');
export const REWARD = position(MILES_SAMPLE, 'reward');
export const RESPONSE_LENGTH = position(MILES_SAMPLE, 'response_length');
export const DATASET = position(MILES_SAMPLE, 'dataset');
export const DATA_SOURCE = position(MILES_SAMPLE, 'data_source');
export const METADATA = position(MILES_SAMPLE, 'metadata');
export const PROMPT = position(MILES_SAMPLE, 'prompt');
export const LABEL = position(MILES_SAMPLE, 'label');
export const LOSS_MASK = position(MILES_SAMPLE, 'loss_mask');
export const WEIGHT_VERSIONS = position(MILES_SAMPLE, 'weight_versions');
export const PREFIX_CACHE_INFO = position(MILES_SAMPLE, 'prefix_cache_info');
export const RESPONSE = position(MILES_SAMPLE, 'response');

export const EXIT_STATUS = position(MILES_METADATA, 'exit_status');
export const METADATA_DATASET = position(MILES_METADATA, 'dataset');
export const DATASET_NAME = position(MILES_METADATA, 'dataset_name');
export const INSTANCE_ID = position(MILES_METADATA, 'instance_id');

// The members of a miles `Sample.to_dict()` that a sample's record is read from, and their
// positions: one list for every reader of them, the per-line path (milesLine.ts,
// milesMetadata.ts) and the `.pt` record (scan/ptSampleRecord.ts).

/** Top-level members, by position. */
export const SAMPLE_MEMBERS = [
  'group_index',
  'index',
  'rollout_id',
  'status',
  'reward',
  'response_length',
  'dataset',
  'data_source',
  'metadata',
  'prompt',
  'label',
  'loss_mask',
  'weight_versions',
  'prefix_cache_info',
  'response',
] as const;
export const GROUP_INDEX = 0;
export const INDEX = 1;
export const ROLLOUT_ID = 2;
export const STATUS = 3;
export const REWARD = 4;
export const RESPONSE_LENGTH = 5;
export const DATASET = 6;
export const DATA_SOURCE = 7;
export const METADATA = 8;
export const PROMPT = 9;
export const LABEL = 10;
export const LOSS_MASK = 11;
export const WEIGHT_VERSIONS = 12;
export const PREFIX_CACHE_INFO = 13;
export const RESPONSE = 14;

/** Members of `metadata`, by position. */
export const METADATA_MEMBERS = ['exit_status', 'dataset', 'dataset_name', 'instance_id'] as const;
export const EXIT_STATUS = 0;
export const METADATA_DATASET = 1;
export const DATASET_NAME = 2;
export const INSTANCE_ID = 3;

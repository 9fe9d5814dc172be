// Generated from the member tables (formats/members/) by fastSource.ts: do not edit; after a change
// to a table, `npx tsc -p tsconfig.json && node scripts/gen-fast-checks.mjs` writes it again.
import { isPlainObject } from '../members/checks';
import { isAnyString, isId, isInteger, isPresent, none, optAnyNumber, optId, optInteger, optReward, optStatus, optText } from './primitives';

type Obj = Record<string, unknown>;

/** The members of a `miles-sample` record. */
function fastMilesSample(o: Obj): boolean {
  return (
    optInteger(o.group_index) &&
    optInteger(o.index) &&
    optInteger(o.rollout_id) &&
    optStatus(o.status) &&
    optReward(o.reward) &&
    optInteger(o.response_length) &&
    optText(o.dataset) &&
    optText(o.data_source) &&
    (none(o.metadata) || isMetadataObject(o.metadata))
  );
}

/** The members of a `metadata` record. */
function fastMetadata(o: Obj): boolean {
  return optText(o.exit_status) && optText(o.dataset) && optText(o.dataset_name) && optId(o.instance_id);
}

/** The members of a `miles-trajectory` record. */
function fastMilesTrajectory(o: Obj): boolean {
  return (
    isInteger(o.sample_index) &&
    optInteger(o.group_index) &&
    optStatus(o.status) &&
    optReward(o.reward) &&
    optText(o.dataset) &&
    optText(o.data_source) &&
    (none(o.metadata) || isMetadataObject(o.metadata))
  );
}

/** The members of a `miles-eval-trials` record. */
function fastMilesEvalTrials(o: Obj): boolean {
  return (
    isId(o.instance_id) &&
    optInteger(o.trial_idx) &&
    optInteger(o.status_code) &&
    optAnyNumber(o.elapsed_sec) &&
    optReward(o.reward) &&
    optText(o.exit_status) &&
    optText(o.dataset) &&
    optText(o.data_source) &&
    (none(o.metadata) || isMetadataObject(o.metadata))
  );
}

/** The members of a `miles-metrics` record. */
function fastMilesMetrics(o: Obj): boolean {
  return optAnyNumber(o.step) && optText(o.step_key) && isPlainObject(o.metrics);
}

/** The members of a `verl` record. */
function fastVerl(o: Obj): boolean {
  return (
    isPresent(o.input) &&
    isAnyString(o.output) &&
    optAnyNumber(o.score) &&
    optAnyNumber(o.reward) &&
    optAnyNumber(o.step) &&
    optId(o.uid) &&
    optText(o.data_source)
  );
}

/** The members of a `generic` record. */
function fastGeneric(o: Obj): boolean {
  return (
    isId(o.groupKey) &&
    optInteger(o.index) &&
    optStatus(o.status) &&
    optReward(o.reward) &&
    optText(o.cause) &&
    optText(o.dataset) &&
    optInteger(o.responseLength)
  );
}

/** A `metadata` object: a plain object whose members pass. */
function isMetadataObject(o: unknown): boolean {
  return isPlainObject(o) && optText(o.exit_status) && optText(o.dataset) && optText(o.dataset_name) && optId(o.instance_id);
}

/** The fast check of each table, by its name. */
export const FAST_CHECKS: Readonly<Record<string, (o: Obj) => boolean>> = {
  'miles-sample': fastMilesSample,
  metadata: fastMetadata,
  'miles-trajectory': fastMilesTrajectory,
  'miles-eval-trials': fastMilesEvalTrials,
  'miles-metrics': fastMilesMetrics,
  verl: fastVerl,
  generic: fastGeneric,
};

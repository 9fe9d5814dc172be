// Every member table, for what is made from all of them (validation/fastChecks.ts) and the test
// that holds each path to them (test/unit/formats/memberTables.test.ts).
import type { MemberTable } from './checks';
import { GENERIC } from './generic';
import { MILES_METADATA, MILES_METRICS, MILES_SAMPLE, MILES_TRAJECTORY, MILES_TRIALS } from './miles';
import { VERL } from './verl';

export const ALL_TABLES: readonly MemberTable[] = [MILES_SAMPLE, MILES_METADATA, MILES_TRAJECTORY, MILES_TRIALS, MILES_METRICS, VERL, GENERIC];
